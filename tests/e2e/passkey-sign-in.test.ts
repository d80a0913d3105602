/**
 * Passkeys through the site in Chromium, with the DevTools protocol's virtual authenticator standing in for the
 * device's (a platform authenticator that verifies the person and keeps discoverable credentials): a passkey is added
 * on the dashboard, signs in from /login with no address typed, ends a password sign-in's second step, and is removed;
 * the owner is told of each change by e-mail. The site is browsed at localhost: a relying party is a domain, never an
 * IP address. Looked at at 1280 and 375 px, with axe.
 */
import type { Browser, CDPSession, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { readOutbox } from "../../server/test-kit"
import { seriousAxeViolations } from "./axe"
import { registerVerifiedAccount } from "./api-client"
import { eventually, launchBrowser, screenshot, waitForPageText, watchPageErrors } from "./browser"
import { fillField } from "./forms"
import { startServer, type RunningServer } from "./server"

const NAME = "Grace Hopper"
const EMAIL = "grace.hopper@example.com"
const PASSWORD = "Compiler-Bug-1947!"
const CARD = "//section[@aria-label='Passkeys']"

describe("passkeys through the site", () => {
  let server: RunningServer
  let site: string
  let browser: Browser
  let page: Page
  let devtools: CDPSession
  let authenticatorId: string
  let errors: string[]

  const button = (text: string, scope = "") => `xpath/.${scope}//button[normalize-space()='${text}']`
  const fill = (label: string, value: string, scope = "") => fillField(page, label, value, scope)
  /** From the keyboard, as a person without a mouse presses it. */
  async function press(text: string, scope = "") {
    const target = await page.waitForSelector(button(text, scope))
    await target!.focus()
    await page.keyboard.press("Enter")
  }
  const waitForPath = (pathname: string) => page.waitForFunction((expected: string) => location.pathname === expected, { timeout: 15_000 }, pathname)
  const mailSubjects = async () => (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes(EMAIL)).map((mail) => mail.subject)

  async function signOut() {
    await page.setViewport({ width: 1280, height: 900 })
    await page.click(`button[aria-label='Account menu for ${NAME}']`)
    await (await page.waitForSelector("xpath/.//*[@role='menuitem' and normalize-space()='Logout']"))!.click()
    await page.waitForSelector("header a[href='/login']")
  }

  async function signInWithPassword() {
    await page.goto(`${site}/login`, { waitUntil: "networkidle0" })
    await fill("Email", EMAIL)
    await fill("Password", PASSWORD)
    await page.click(button("Sign in"))
  }

  beforeAll(async () => {
    server = await startServer({}, { publicUrlIsServer: true, publicHost: "localhost" })
    site = `http://localhost:${server.port}`
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: NAME })
    browser = await launchBrowser()
    page = await browser.newPage()
    errors = watchPageErrors(page)
    devtools = await page.createCDPSession()
    await devtools.send("WebAuthn.enable")
    ;({ authenticatorId } = await devtools.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true }
    }))
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("adds a passkey on the dashboard with the password, and the owner is told", async () => {
    await page.setViewport({ width: 1280, height: 900 })
    await signInWithPassword()
    await waitForPath("/dashboard")
    const card = await page.waitForSelector(`xpath/.${CARD}`)
    await card!.scrollIntoView()
    await waitForPageText(page, "No passkeys yet.")
    await press("Add a passkey", CARD)
    await fill("Name (optional)", "Laptop", CARD)
    await fill("Current password", PASSWORD, CARD)
    await press("Create passkey", CARD)
    await waitForPageText(page, "Passkey 'Laptop' added. You can now sign in with it.")
    await page.waitForSelector(`xpath/.${CARD}//ul[@aria-label='Your passkeys']/li[.//p[normalize-space()='Laptop']]`)
    // The authenticator keeps one discoverable credential for the site's host.
    const { credentials } = await devtools.send("WebAuthn.getCredentials", { authenticatorId })
    expect(credentials).toHaveLength(1)
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" })
    await (await page.$(`xpath/.${CARD}`))!.screenshot({ path: "tests/.artifacts/passkeys-card-1280.png" })
    expect(await seriousAxeViolations(page)).toEqual([])
    await eventually(mailSubjects, (subjects) => expect(subjects).toContain("A passkey 'Laptop' was added"), 15_000)
    await signOut()
  })

  it("signs in from /login with the passkey alone, no address typed", async () => {
    await page.setViewport({ width: 375, height: 812 })
    await page.goto(`${site}/login`, { waitUntil: "networkidle0" })
    await page.waitForSelector(button("Sign in with a passkey"))
    await screenshot(page, "passkey-login-375")
    expect(await seriousAxeViolations(page)).toEqual([])
    await press("Sign in with a passkey")
    await waitForPath("/dashboard")
    await waitForPageText(page, `Welcome back, ${NAME}.`)
    await signOut()
  })

  it("ends a password sign-in's second step, the passkey being the account's second factor", async () => {
    await page.setViewport({ width: 1280, height: 900 })
    await signInWithPassword()
    await waitForPageText(page, "Confirm it is you with a passkey you added to your account.")
    await screenshot(page, "passkey-second-step-1280")
    expect(await seriousAxeViolations(page)).toEqual([])
    await press("Use a passkey")
    await waitForPath("/dashboard")
    await waitForPageText(page, `Welcome back, ${NAME}.`)
  })

  it("removes the passkey with the password: it signs in no more, and the owner is told", async () => {
    await page.setViewport({ width: 375, height: 812 })
    const card = await page.waitForSelector(`xpath/.${CARD}`)
    await card!.scrollIntoView()
    await press("Remove", CARD)
    await fill("Current password", PASSWORD, CARD)
    await card!.screenshot({ path: "tests/.artifacts/passkeys-remove-375.png" })
    expect(await seriousAxeViolations(page)).toEqual([])
    await press("Remove passkey", CARD)
    await waitForPageText(page, "Passkey 'Laptop' removed.")
    await waitForPageText(page, "No passkeys yet.")
    await eventually(mailSubjects, (subjects) => expect(subjects).toContain("A passkey 'Laptop' was removed"), 15_000)
    await signOut()

    // The authenticator still holds the credential: the server no longer knows it.
    await page.goto(`${site}/login`, { waitUntil: "networkidle0" })
    await press("Sign in with a passkey")
    await waitForPageText(page, "This passkey is not registered with Image Query AI. It may have been removed from your account.")
    expect(errors.filter((error) => !error.includes("401"))).toEqual([])
  })
})
