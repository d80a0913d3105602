/**
 * Signing in with the company's identity provider, end to end in Chromium (issue 46): an Enterprise owner verifies
 * Acme's domain through the API, then on /organization tests and saves its OpenID provider (oidc-provider, started
 * here on loopback), creates a SCIM token its provider provisions a person with, and adds a webhook whose signed test
 * the company's system receives; a colleague
 * who has no account chooses *Sign in with SSO* on /login, types the work address, passes the provider's sign-in and
 * lands on the dashboard signed in, a member of Acme made just in time. With SSO enforced, the colleague's password
 * sign-in is refused in words that name the way in. The pages are looked at at 375 and 1280 px and checked with axe.
 */
import http from "node:http"
import type { AddressInfo } from "node:net"

import type { Browser, Page } from "puppeteer-core"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { startIdentityProvider, type TestIdentityProvider } from "../../server/organizations/sso/sso-test-kit"
import { type DnsStandIn, startDnsStandIn } from "../../server/test-kit"
import { seriousAxeViolations } from "./axe"
import { apiOf, payInTestMode, registerVerifiedAccount, type Api } from "./api-client"
import { eventually, launchBrowser, screenshot, waitForPageText, watchPageErrors } from "./browser"
import { fillField } from "./forms"
import { startServer, type RunningServer } from "./server"

const OWNER = { email: "owner@acme-sso.example", password: "Green-Anchor-61!", name: "Olive Owner" }
const COLLEAGUE = "casey@acme-sso.example"
/** A colleague who made an account with a password before Acme enforced SSO. */
const PASSWORD_USER = { email: "pat@acme-sso.example", password: "Red-Kettle-52!", name: "Pat Password" }
const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`

describe("signing in with the company's identity provider", () => {
  let dns: DnsStandIn
  let server: RunningServer
  let provider: TestIdentityProvider
  let api: Api
  let ownerToken: string
  let browser: Browser
  let page: Page
  let pageErrors: string[]
  /** The company's system that hears Acme's webhooks: every request it received, headers and body. */
  let receiver: http.Server
  let receiverUrl: string
  const received: { headers: Record<string, string>; body: string }[] = []

  beforeAll(async () => {
    dns = await startDnsStandIn()
    receiver = http.createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString()))
      request.on("end", () => {
        received.push({ headers: request.headers as Record<string, string>, body })
        response.writeHead(204).end()
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    server = await startServer({ DNS_SERVERS: dns.address, SSO_ALLOW_INSECURE_ISSUER: "true", WEBHOOKS_ALLOW_LOOPBACK: "true" }, { publicUrlIsServer: true })
    provider = await startIdentityProvider([`${server.url}/api/auth/sso/callback`])
    api = apiOf(server)
    await registerVerifiedAccount(server, OWNER)
    await registerVerifiedAccount(server, PASSWORD_USER)
    ownerToken = (await api("/api/auth/login", { method: "POST", body: { email: OWNER.email, password: OWNER.password } })).body.data!.token as string
    await payInTestMode(server, ownerToken, OWNER, "enterprise")
    expect((await api("/api/organizations", { method: "POST", token: ownerToken, body: { name: "Acme" } })).status).toBe(201)
    const claimed = await api("/api/organizations/current/domains", { method: "POST", token: ownerToken, body: { domain: "acme-sso.example" } })
    dns.txt.set("_image-query-ai.acme-sso.example", [(claimed.body.data as { record: { value: string } }).record.value])
    expect((await api("/api/organizations/current/domains/acme-sso.example/verify", { method: "POST", token: ownerToken })).status).toBe(200)
    browser = await launchBrowser()
    page = await browser.newPage()
    pageErrors = watchPageErrors(page)
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await provider?.close()
    await server?.stop()
    await dns?.close()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  it("lets the owner test and save the provider on /organization", async () => {
    const context = await browser.createBrowserContext()
    const ownerPage = await context.newPage()
    const ownerErrors = watchPageErrors(ownerPage)
    await ownerPage.setViewport({ width: 1280, height: 900 })
    await ownerPage.goto(`${server.url}/login`)
    await fillField(ownerPage, "Email", OWNER.email)
    await fillField(ownerPage, "Password", OWNER.password)
    await ownerPage.click(button("Sign in"))
    await ownerPage.waitForFunction(() => location.pathname === "/dashboard", { timeout: 30_000 })
    await ownerPage.goto(`${server.url}/organization`)
    await waitForPageText(ownerPage, "Redirect address to register with your provider", 30_000)
    await fillField(ownerPage, "Issuer", provider.issuer)
    await fillField(ownerPage, "Client ID", provider.clientId)
    await fillField(ownerPage, "Client secret", provider.clientSecret)
    await ownerPage.click(button("Test"))
    await waitForPageText(ownerPage, `The provider answered as ${provider.issuer}`, 30_000)
    await ownerPage.click(button("Save"))
    await waitForPageText(ownerPage, `sign in through ${provider.issuer}`, 30_000)
    // A SCIM token, shown once, with which the provider provisions a person.
    await ownerPage.click(button("Create token"))
    await waitForPageText(ownerPage, "Copy it now: it is not shown again", 30_000)
    const scimToken = await ownerPage.$eval("xpath/.//code[starts-with(normalize-space(), 'iqa_scim_')]", (element) => element.textContent!.trim())
    const scim = (pathname: string, init: { method: string; body?: unknown }) =>
      fetch(`${server.url}/scim/v2${pathname}`, { method: init.method, headers: { authorization: `Bearer ${scimToken}`, "content-type": "application/scim+json" }, body: init.body === undefined ? undefined : JSON.stringify(init.body) })
    const provisioned = await scim("/Users", { method: "POST", body: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "robin@acme-sso.example", name: { givenName: "Robin", familyName: "Roe" }, active: true } })
    expect(provisioned.status).toBe(201)
    // A webhook: its secret shown once, a test sent, signed so that the company's system can check it.
    await fillField(ownerPage, "Endpoint URL", receiverUrl)
    await ownerPage.click(button("Add webhook"))
    const secretCode = await ownerPage.waitForSelector("xpath/.//code[starts-with(normalize-space(), 'whsec_')]", { timeout: 30_000 })
    const secret = await secretCode!.evaluate((element) => element.textContent!.trim())
    await (await ownerPage.waitForSelector(button("Send a test"), { timeout: 30_000 }))!.click()
    const delivered = await eventually(async () => received.find((request) => request.body.includes("webhook.test")), (request) => expect(request).toBeTruthy(), 60_000)
    expect(new Webhook(secret).verify(delivered!.body, delivered!.headers)).toMatchObject({ type: "webhook.test" })
    await waitForPageText(ownerPage, "Delivered", 30_000)
    await screenshot(ownerPage, "sso-settings-1280")
    await ownerPage.setViewport({ width: 375, height: 800 })
    await screenshot(ownerPage, "sso-settings-375")
    expect(JSON.stringify(await seriousAxeViolations(ownerPage), null, 1)).toBe("[]")
    expect(ownerErrors).toEqual([])
    await context.close()
  }, 120_000)

  it("takes a new colleague through the provider to the dashboard, a member of Acme", async () => {
    provider.signInAs({ sub: "casey-at-acme", email: COLLEAGUE, email_verified: true, name: "Casey Colleague" })
    await page.setViewport({ width: 375, height: 800 })
    await page.goto(`${server.url}/login`)
    await page.waitForSelector(button("Sign in with SSO"))
    await page.click(button("Sign in with SSO"))
    await fillField(page, "Work e-mail", COLLEAGUE)
    await screenshot(page, "sso-sign-in-375")
    expect(await seriousAxeViolations(page)).toEqual([])
    await page.click(button("Continue with SSO"))
    // Through the provider and back: /login/sso exchanges the code and goes on to the dashboard.
    await page.waitForFunction(() => location.pathname === "/dashboard", { timeout: 60_000 })
    await waitForPageText(page, "Casey Colleague", 30_000)
    await waitForPageText(page, "Acme", 30_000)
    await page.setViewport({ width: 1280, height: 900 })
    await screenshot(page, "sso-signed-in-1280")
    expect(await page.evaluate(() => location.hash)).toBe("")
    const profile = await api("/api/auth/profile", { token: (await page.evaluate(() => localStorage.getItem("authToken")))! })
    expect(profile.body.data).toMatchObject({ user: { email: COLLEAGUE, emailVerified: true } })
    expect(pageErrors).toEqual([])
  }, 180_000)

  it("once Acme enforces SSO, refuses a colleague's password in words that name the way in", async () => {
    const members = await api("/api/organizations/current", { token: ownerToken })
    expect(JSON.stringify(members.body.data)).toContain(COLLEAGUE)
    const enforced = await api("/api/organizations/current/sso", { method: "PUT", token: ownerToken, body: { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, enforced: true } })
    expect(enforced.status).toBe(200)
    const context = await browser.createBrowserContext()
    const stranger = await context.newPage()
    await stranger.goto(`${server.url}/login`)
    await fillField(stranger, "Email", PASSWORD_USER.email)
    await fillField(stranger, "Password", PASSWORD_USER.password)
    await stranger.click(button("Sign in"))
    await waitForPageText(stranger, "Acme signs you in through its identity provider", 30_000)
    expect(await stranger.evaluate(() => location.pathname)).toBe("/login")
    // The owner keeps the password way in, so that a broken provider cannot lock the company out.
    const owner = await api("/api/auth/login", { method: "POST", body: { email: OWNER.email, password: OWNER.password } })
    expect(owner.status).toBe(200)
    await stranger.goto(`${server.url}/login/sso#error=wrongDomain`)
    await waitForPageText(stranger, "not on your organisation's domains", 30_000)
    await screenshot(stranger, "sso-failed-375")
    expect(await seriousAxeViolations(stranger)).toEqual([])
    await context.close()
  }, 120_000)
})
