/**
 * A team, end to end (issue 26): an Enterprise subscriber makes "Acme" on the site, gives it a colour and a logo and
 * invites a colleague by e-mail; the colleague registers from the e-mail's link, verifies the address, signs in and
 * accepts. In the colleague's extension the side panel's header and the popup show Acme's name, logo and colour, a
 * question counts in Acme's pool (on the owner's page too), a colour changed on the site shows when the panel is
 * focused again, the brand stays with the service unreachable, and when the owner removes the colleague the brand goes
 * and the usage line is their own Free plan's again.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, BrowserContext, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { codeAt } from "../../server/auth/mfa/authenticator"
import { completion, type DnsStandIn, readOutbox, sendJson, startDnsStandIn, startStandIn } from "../../server/test-kit"
import { seriousAxeViolations } from "./axe"
import { apiOf, payInTestMode, registerVerifiedAccount, type Api } from "./api-client"
import { eventually, inWorker, installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, reloadSidePanel, screenshot, SCREENSHOT_DIR, waitForPageText, waitForSiteLoaded, watchPageErrors } from "./browser"
import { fieldByLabel, fillField } from "./forms"
import { solidPng } from "./png"
import { serveFixtures, startServer, type RunningServer } from "./server"

const OWNER = { email: "acme.owner@example.com", password: "Green-Anchor-61!", name: "Olive Owner" }
/** The size of the member's side panel. */
const PANEL_VIEWPORT = { width: 375, height: 700 }
const MEMBER = { email: "mia.member@example.com", password: "Blue-Harbor-42!", name: "Mia Member" }
const SITE_ADMIN = { email: "site.admin@example.com", password: "Quiet-Lantern-83!" }
const GREEN = "#0a7d5a"
const YELLOW = "#ffd400"

/** What a header shows, as the browser computed it. */
interface HeaderLook {
  text: string
  background: string
  color: string
  logoAlt: string | null
  logoSrc: string | null
  logoLoaded: boolean
}

const rgb = (hex: string) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`
const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
const link = (text: string) => `xpath/.//a[normalize-space()='${text}']`

describe("a team: invited, branded, pooled and removed", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let provider: Awaited<ReturnType<typeof startStandIn>>
  let server: RunningServer
  let api: Api
  let browser: Browser
  let ownerContext: BrowserContext
  let ownerPage: Page
  let dns: DnsStandIn
  let extension: LoadedExtension
  let memberPage: Page
  let panel: Page
  let panelErrors: string[]

  const look = (target: Page, selector: string) =>
    target.$eval(selector, (element) => {
      const logo = element.querySelector<HTMLImageElement>("[data-testid='brand-logo']")
      const style = getComputedStyle(element)
      return {
        text: (element as HTMLElement).innerText,
        background: style.backgroundColor,
        color: style.color,
        logoAlt: logo?.alt ?? null,
        logoSrc: logo?.src ?? null,
        logoLoaded: Boolean(logo?.complete && logo.naturalWidth > 0)
      } satisfies HeaderLook
    })
  const headerLook = () => look(panel, "[data-testid='panel-header']")
  const usageLine = () => panel.$eval("[data-testid='panel-usage']", (element) => element.textContent ?? "")
  const storedLogo = () => inWorker(extension.worker, async () => ((await chrome.storage.local.get("organizationLogo")) as { organizationLogo?: { url: string; dataUrl: string } }).organizationLogo ?? null)
  /** The panel comes back to the front: it reads the account again, as after a visit to the site. */
  const focusPanel = () => panel.evaluate(() => void window.dispatchEvent(new Event("focus")))
  const ownerToken = () => ownerPage.evaluate(() => localStorage.getItem("authToken")!)

  async function shoot(target: Page, selector: string, name: string) {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await (await target.$(selector))!.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, `${name}.png`) })
  }

  /** The link of the newest e-mail to `email` whose subject starts so, on this server's origin. */
  async function mailedLink(email: string, subjectStart: string): Promise<string> {
    const found = await eventually(
      async () => (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes(email) && mail.subject.startsWith(subjectStart)).at(-1),
      (mail) => expect(mail?.link).toBeTruthy()
    )
    const mailed = new URL(found!.link!)
    return `${server.url}${mailed.pathname}${mailed.search}`
  }

  async function signInOnSite(page: Page, account: { email: string; password: string }) {
    await fillField(page, "Email", account.email)
    await fillField(page, "Password", account.password)
    await page.click(button("Sign in"))
  }

  /** A logo as a designer would hand it over: a PNG drawn in the browser, a white "A" on a dark disc. */
  async function drawLogo(): Promise<Buffer> {
    const canvasPage = await browser.newPage()
    const dataUrl = await canvasPage.evaluate(() => {
      const canvas = document.createElement("canvas")
      canvas.width = canvas.height = 300
      const context = canvas.getContext("2d")!
      context.fillStyle = "#ffffff"
      context.fillRect(0, 0, 300, 300)
      context.fillStyle = "#12324a"
      context.beginPath()
      context.arc(150, 150, 130, 0, Math.PI * 2)
      context.fill()
      context.fillStyle = "#ffffff"
      context.font = "bold 180px sans-serif"
      context.textAlign = "center"
      context.textBaseline = "middle"
      context.fillText("A", 150, 160)
      return canvas.toDataURL("image/png")
    })
    await canvasPage.close()
    return Buffer.from(dataUrl.split(",")[1]!, "base64")
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-team-"))
    fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><html lang="en"><title>A page</title><p>A photo.</p><img src="photo.png" alt="A photo" width="600" height="400">`)
    fs.writeFileSync(path.join(folder, "photo.png"), solidPng(600, 400, [90, 160, 230]))
    fixtures = await serveFixtures(folder)
    provider = await startStandIn((request, response) => {
      const body = JSON.parse(request.body) as { messages: { content: string | { type: string; text?: string }[] }[] }
      const last = body.messages.at(-1)?.content
      const question = typeof last === "string" ? last : (last?.find((part) => part.type === "text")?.text ?? "")
      sendJson(response, 200, completion(`You asked: ${question}`))
    })
    dns = await startDnsStandIn()
    server = await startServer(
      { OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test", ADMIN_EMAIL: SITE_ADMIN.email, ADMIN_PASSWORD: SITE_ADMIN.password, DNS_SERVERS: dns.address },
      { publicUrlIsServer: true }
    )
    api = apiOf(server)
    // The owner's Enterprise subscription, bought through the API (the billing e2e walks the checkout).
    await registerVerifiedAccount(server, OWNER)
    const token = (await api("/api/auth/login", { method: "POST", body: { email: OWNER.email, password: OWNER.password } })).body.data!.token as string
    await payInTestMode(server, token, OWNER, "enterprise")

    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    fs.writeFileSync(path.join(folder, "acme-logo.png"), await drawLogo())
    // The owner works on the site in a window of their own; the colleague's browser has the extension.
    ownerContext = await browser.createBrowserContext()
    ownerPage = await ownerContext.newPage()
    await ownerPage.setViewport({ width: 1280, height: 900 })
    memberPage = await browser.newPage()
    await memberPage.setViewport({ width: 1280, height: 900 })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await provider?.close()
    await dns?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("the owner creates Acme on the site, gives it a colour and a logo, and invites a colleague by e-mail", async () => {
    const errors = watchPageErrors(ownerPage)
    const failed: string[] = []
    ownerPage.on("response", (response) => void (response.status() >= 400 && failed.push(`${response.status()} ${new URL(response.url()).pathname}`)))
    await ownerPage.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await signInOnSite(ownerPage, OWNER)
    await ownerPage.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 })
    await ownerPage.goto(`${server.url}/organization`, { waitUntil: "networkidle0" })
    await fillField(ownerPage, "Organisation name", "Acme")
    await ownerPage.click(button("Create organisation"))
    await waitForPageText(ownerPage, "Acme is created. Invite your team below.")
    await waitForSiteLoaded(ownerPage)

    await fillField(ownerPage, "Accent colour", GREEN)
    await ownerPage.click(button("Save brand"))
    await waitForPageText(ownerPage, "The brand is saved.")
    const file = (await ownerPage.waitForSelector("input[type='file']"))!
    await file.uploadFile(path.join(folder, "acme-logo.png"))
    await (await ownerPage.waitForSelector(button("Upload logo")))!.click()
    await waitForPageText(ownerPage, "The logo is uploaded")

    await fillField(ownerPage, "E-mail address", MEMBER.email)
    await fillField(ownerPage, "Role", "member")
    await ownerPage.click(button("Send invitation"))
    await waitForPageText(ownerPage, `Invitation sent to ${MEMBER.email}.`)
    await ownerPage.waitForSelector(`xpath/.//ul[@aria-label='Pending invitations']//*[contains(., '${MEMBER.email}')]`)

    // A site admin gives Acme its monthly pool of 100 requests.
    const admin = (await api("/api/auth/login", { method: "POST", body: SITE_ADMIN })).body.data!.token as string
    const acmeId = (await api("/api/organizations/current", { token: await ownerToken() })).body.data!.id as string
    expect((await api(`/api/admin/organizations/${acmeId}/request-limit`, { method: "PUT", token: admin, body: { limit: 100 } })).status).toBe(200)
    // The one failed request is the page asking for an organisation before there was one: 404, as the API says.
    expect(failed).toEqual(["404 /api/organizations/current"])
    expect(errors).toEqual(["Failed to load resource: the server responded with a status of 404 (Not Found)"])
  })

  it("the colleague registers from the e-mail's link, verifies the address, signs in and accepts", async () => {
    const errors = watchPageErrors(memberPage)
    const invitation = await mailedLink(MEMBER.email, `${OWNER.name} invited you to Acme on Image Query AI`)
    expect(new URL(invitation).pathname).toBe("/organization/join")
    await memberPage.goto(invitation)
    await (await memberPage.waitForSelector(link("Create an account")))!.click()
    await fillField(memberPage, "Full name", MEMBER.name)
    await fillField(memberPage, "Email", MEMBER.email)
    await fillField(memberPage, "Password", MEMBER.password)
    await fillField(memberPage, "Confirm password", MEMBER.password)
    await memberPage.click("xpath/.//label[contains(., 'I agree to the')]/input")
    await memberPage.click(button("Create account"))
    await (await memberPage.waitForSelector("xpath/.//*[@role='dialog']//label[contains(., 'I have read and agree')]//input"))!.click()
    await memberPage.click(button("Accept and continue"))
    await waitForPageText(memberPage, "Check your email")
    await screenshot(memberPage, "team-invitee-check-email")

    // The verification link, opened in a tab of its own as from a mail client.
    const verifyTab = await browser.newPage()
    await verifyTab.goto(await mailedLink(MEMBER.email, "Verify"))
    await waitForPageText(verifyTab, `Your email ${MEMBER.email} is verified.`)
    await verifyTab.close()

    // Back in the first tab, which notices the verification when shown again; signing in leads back to the invitation.
    await memberPage.bringToFront()
    await waitForPageText(memberPage, "Email verified")
    await memberPage.click(`xpath/.//main//a[normalize-space()='Sign in']`)
    await memberPage.waitForSelector(fieldByLabel("Password"))
    await signInOnSite(memberPage, MEMBER)
    await (await memberPage.waitForSelector(button("Accept invitation"), { timeout: 15_000 }))!.click()
    await memberPage.waitForFunction(() => location.pathname === "/organization", { timeout: 15_000 })
    await waitForPageText(memberPage, "Welcome to Acme!")
    await memberPage.waitForSelector(`xpath/.//table//tbody/tr[contains(., '${MEMBER.email}')]`)
    expect(errors).toEqual([])

    // Signed in to the extension as the site's sign-in message makes it: its own session from the site's token.
    await openExtensionSession(extension.worker, server.url, await memberPage.evaluate(() => localStorage.getItem("authToken")!))
    await memberPage.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    panel = await openSidePanel(browser, extension, memberPage, PANEL_VIEWPORT)
    panelErrors = watchPageErrors(panel)
  })

  it("shows the colleague Acme's name, logo and colour in the side panel's header, readable and kept for offline use", async () => {
    const header = await eventually(headerLook, (found) => {
      expect(found.logoLoaded).toBe(true)
      expect(found.background).toBe(rgb(GREEN))
    }, 20_000)
    expect(header.text).toContain("Acme")
    expect(header.logoAlt).toBe("Acme")
    expect(header.logoSrc).toMatch(/^data:image\/png;base64,/)
    // White on the dark green: well past AA.
    expect(header.color).toBe(rgb("#ffffff"))
    expect(await panel.$eval("[data-testid='brand']", (element) => element.getAttribute("title"))).toBe("Acme · Image Query AI")
    const kept = await storedLogo()
    expect(kept?.dataUrl).toBe(header.logoSrc)
    expect(kept?.url).toMatch(/\/api\/organizations\/[^/]+\/logo\/[^/]+$/)
    await shoot(panel, "[data-testid='panel-header']", "brand-panel-header-green-375")
    await screenshot(panel, "brand-panel-375")
    expect(await seriousAxeViolations(panel)).toEqual([])
    expect(panelErrors).toEqual([])
  })

  it("shows the same brand in the popup", async () => {
    const popup = await browser.newPage()
    await popup.setViewport({ width: 320, height: 480 })
    await popup.goto(`chrome-extension://${extension.id}/popup.html`)
    await waitForPageText(popup, MEMBER.name)
    const band = await eventually(() => look(popup, "[data-testid='popup-brand']"), (found) => expect(found.logoLoaded).toBe(true))
    expect(band).toMatchObject({ background: rgb(GREEN), color: rgb("#ffffff"), logoAlt: "Acme" })
    expect(band.text).toContain("Acme")
    await shoot(popup, "body > div, #__plasmo > div", "brand-popup")
    expect(await seriousAxeViolations(popup)).toEqual([])
    await popup.close()
  })

  it("counts the colleague's question in Acme's pool, in the panel and on the owner's page", async () => {
    await eventually(usageLine, (line) => expect(line).toContain("Acme's pool: 0 of 100 AI requests used this month"), 15_000)
    await (await panel.waitForSelector(`li[data-url='${fixtures.url}/photo.png'] > button`, { timeout: 15_000 }))!.click()
    await (await panel.waitForSelector(button("Ask")))!.click()
    await (await panel.waitForSelector("#image-question"))!.type("What colour is it?")
    await panel.click("form button[type='submit']")
    await panel.waitForFunction(() => document.querySelector("[data-testid='vqa-answer']")?.textContent === "You asked: What colour is it?", { timeout: 20_000 })
    await eventually(usageLine, (line) => expect(line).toContain("Acme's pool: 1 of 100 AI requests used this month"))
    await screenshot(panel, "team-member-panel-375")

    await ownerPage.reload()
    await eventually(
      () => ownerPage.$eval("[data-testid='pool-use']", (element) => element.textContent),
      (text) => expect(text).toBe("1 of 100 AI requests used this month")
    )
    const row = await ownerPage.$eval(`xpath/.//table//tbody/tr[contains(., '${MEMBER.email}')]`, (element) => (element as HTMLElement).innerText)
    expect(row).toMatch(/Member[\s\S]*\b1\b/)
    for (const width of [1280, 375]) {
      await ownerPage.setViewport({ width, height: 900 })
      await screenshot(ownerPage, `organization-page-${width}`)
    }
    await ownerPage.setViewport({ width: 1280, height: 900 })
    expect(await seriousAxeViolations(ownerPage)).toEqual([])
  })

  it("lets the owner require two-step sign-in of every member once their own account has it, and says who has it", async () => {
    const twoStepCell = (email: string) => ownerPage.$eval(`xpath/.//table//tbody/tr[contains(., '${email}')]`, (element) => (element as HTMLElement).innerText)
    expect(await twoStepCell(MEMBER.email)).toMatch(/\bOff\b/)
    const rule = () => ownerPage.waitForSelector("xpath/.//button[@role='switch']")
    // From the keyboard, refused while the owner's own account has no second factor, with the way to set it up.
    await (await rule())!.focus()
    await ownerPage.keyboard.press("Space")
    await waitForPageText(ownerPage, "Turn on two-step sign-in for your own account first")
    await ownerPage.waitForSelector("xpath/.//a[normalize-space()='Set up two-step sign-in']")

    const token = await ownerToken()
    const setup = await api("/api/auth/mfa/totp/setup", { method: "POST", token, body: { currentPassword: OWNER.password } })
    const secret = String((setup.body.data as { secret: string }).secret)
    expect((await api("/api/auth/mfa/totp/enable", { method: "POST", token, body: { code: codeAt(secret, Date.now()) } })).status).toBe(200)
    await ownerPage.reload({ waitUntil: "networkidle0" })
    await eventually(() => twoStepCell(OWNER.email), (row) => expect(row).toMatch(/\bOn\b/), 15_000)
    await (await rule())!.focus()
    await ownerPage.keyboard.press("Space")
    await ownerPage.waitForSelector("xpath/.//button[@role='switch' and @aria-checked='true']", { timeout: 15_000 })
    await (await ownerPage.waitForSelector("xpath/.//button[@role='switch']/ancestor::section"))!.screenshot({ path: path.join(SCREENSHOT_DIR, "organization-two-step-rule-1280.png") })
    expect(await seriousAxeViolations(ownerPage)).toEqual([])
    // Off again: the colleague's pool goes on for the tests below.
    await (await rule())!.focus()
    await ownerPage.keyboard.press("Space")
    await ownerPage.waitForSelector("xpath/.//button[@role='switch' and @aria-checked='false']", { timeout: 15_000 })
  })

  it("lets the owner claim the company's e-mail domain and verify it by the TXT record the page shows", async () => {
    const card = "//section[@aria-label='E-mail domains']"
    await (await ownerPage.waitForSelector(`xpath/.${card}`))!.scrollIntoView()
    await fillField(ownerPage, "Domain", "Acme.example", card)
    const add = await ownerPage.waitForSelector(`xpath/.${card}//button[normalize-space()='Add domain']`)
    await add!.focus()
    await ownerPage.keyboard.press("Enter")
    await waitForPageText(ownerPage, "Added acme.example. Add its TXT record at your DNS provider, then verify it.")
    const recordPart = (label: string) => ownerPage.$eval(`xpath/.${card}//div[dt[normalize-space()='${label}']]//code`, (element) => element.textContent ?? "")
    const [name, value] = [await recordPart("Name"), await recordPart("Value")]
    expect(name).toBe("_image-query-ai.acme.example")
    // What the company's IT does at its DNS provider.
    dns.txt.set(name, [value])
    for (const width of [1280, 375]) {
      await ownerPage.setViewport({ width, height: 900 })
      await (await ownerPage.$(`xpath/.${card}`))!.screenshot({ path: path.join(SCREENSHOT_DIR, `organization-domains-${width}.png`) })
    }
    await ownerPage.setViewport({ width: 1280, height: 900 })
    expect(await seriousAxeViolations(ownerPage)).toEqual([])
    const verify = await ownerPage.waitForSelector(`xpath/.${card}//button[@aria-label='Verify acme.example']`)
    await verify!.focus()
    await ownerPage.keyboard.press("Enter")
    await ownerPage.waitForSelector(`xpath/.${card}//*[starts-with(normalize-space(), 'Verified on')]`, { timeout: 15_000 })
    expect(dns.asked).toContain("_image-query-ai.acme.example")
  })

  it("follows a colour changed on the site when the panel is focused again: black text on yellow", async () => {
    expect((await api("/api/organizations/current", { method: "PATCH", token: await ownerToken(), body: { accentColor: YELLOW } })).status).toBe(200)
    await focusPanel()
    const header = await eventually(headerLook, (found) => expect(found.background).toBe(rgb(YELLOW)), 15_000)
    expect(header.color).toBe(rgb("#000000"))
    expect(header.logoLoaded).toBe(true)
    await shoot(panel, "[data-testid='panel-header']", "brand-panel-header-yellow-375")
    expect(await seriousAxeViolations(panel)).toEqual([])
  })

  it("keeps the brand, logo included, with the service unreachable", async () => {
    try {
      panel = await reloadSidePanel(browser, extension, memberPage, panel, { prepare: (next) => next.setOfflineMode(true), viewport: PANEL_VIEWPORT })
      const header = await eventually(headerLook, (found) => {
        expect(found.logoLoaded).toBe(true)
        expect(found.background).toBe(rgb(YELLOW))
      })
      expect(header.text).toContain("Acme")
      await waitForPageText(panel, "Usage unavailable")
    } finally {
      await panel.setOfflineMode(false)
    }
  })

  it("ends the pool and the brand when the owner removes the colleague: their usage line is their own Free plan's", async () => {
    await (await ownerPage.waitForSelector(`button[aria-label='Remove ${MEMBER.name}']`))!.click()
    await (await ownerPage.waitForSelector(`xpath/.//*[@role='alertdialog' or @role='dialog']//button[normalize-space()='Remove member']`))!.click()
    await ownerPage.waitForFunction((email: string) => ![...document.querySelectorAll("table tbody tr")].some((cell) => cell.textContent?.includes(email)), { timeout: 15_000 }, MEMBER.email)

    await focusPanel()
    const header = await eventually(headerLook, (found) => expect(found.text).not.toContain("Acme"), 15_000)
    expect(header.text).toContain("Image Query AI")
    expect(header.logoSrc).toBeNull()
    expect(header.background).toBe(rgb("#ffffff"))
    const ownLine = await eventually(usageLine, (line) => expect(line).toContain("0 of 10 AI requests used this month"))
    expect(ownLine).not.toContain("pool")
    await eventually(storedLogo, (kept) => expect(kept).toBeNull())
    await shoot(panel, "[data-testid='panel-header']", "brand-panel-header-none-375")
  })
})
