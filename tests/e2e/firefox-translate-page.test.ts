/**
 * *Translate images on this page* from the Firefox build, as a person uses it: signed in through the site in the
 * extension's own tab page, the panel (in a window of its own pinned to the page, as the extension opens it when the
 * sidebar is closed) turns the mode on; the signs on the page read as their French translation, the ones the page adds
 * later too, and the same command shows the originals again and back without reading anything twice; *Always
 * translate* brings them back on a second visit from the device's copy; with the month's requests used up the next
 * page's signs stay original and the panel says why. Each sign's
 * place on the page is screenshotted and read with tesseract.js (signs-fixture.ts), as in the Chromium test; the model
 * is a stand-in that translates into French.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { apiOf, registerVerifiedAccount } from "./api-client"
import { eventually, screenshot } from "./browser"
import { findExtensionPage, FIREFOX_EXTENSION_ORIGIN, firefoxUnavailableReason, inExtensionPage, launchFirefoxWithExtension, openExtensionPage, waitInPage } from "./firefox"
import { fieldByLabel } from "./forms"
import { type RunningServer, serveFixtures, serveHostilePage, startServer } from "./server"
import {
  LATER_SIGNS,
  originalOnPage as signOriginalOnPage,
  PAGE_SIGNS,
  QUOTA_SIGNS,
  startTranslator,
  stopReadingSigns,
  togglePressed,
  TRANSLATE_TOGGLE,
  translatedOnPage as signTranslatedOnPage,
  writeSignsPage
} from "./signs-fixture"

const unavailable = firefoxUnavailableReason()
if (unavailable && process.env.CI) throw new Error(`The Firefox end-to-end tests must run in CI, but ${unavailable}.`)
if (unavailable) console.warn(`Firefox end-to-end tests skipped: ${unavailable}.`)

const NAME = "Firefox Reader"
const EMAIL = "firefox.reader@example.com"
const PASSWORD = "Quiet-Lantern-58!"
const TIMEOUT_MS = 120_000

describe.skipIf(unavailable)("Translate images on this page, in Firefox", () => {
  let provider: Awaited<ReturnType<typeof startTranslator>>
  let server: RunningServer
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let folder: string
  let browser: Browser
  let page: Page
  let panel: Page

  const translatedOnPage = (word: string) => signTranslatedOnPage(page, word, TIMEOUT_MS)
  const originalOnPage = (word: string) => signOriginalOnPage(page, word)
  const pressed = () => togglePressed(panel)
  const usage = async (token: string) => (await apiOf(server)("/api/analyze/usage", { token })).body.data as { used: number }

  beforeAll(async () => {
    provider = await startTranslator()
    server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test" })
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: NAME })
    browser = await launchFirefoxWithExtension()
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-firefox-signs-"))
    await writeSignsPage(browser, folder)
    fixtures = await serveFixtures(folder)
    page = (await browser.pages())[0]!
    await page.goto(`${fixtures.url}/signs.html`, { waitUntil: "load" })

    // Signed in with the site's own form in the extension's tab page, against this test's service.
    const setup = await browser.newPage()
    await openExtensionPage(setup, "popup.html")
    await inExtensionPage(setup, async (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), server.url)
    await openExtensionPage(setup, "tabs/site.html#/login")
    for (const [label, value] of [["Email", EMAIL], ["Password", PASSWORD]] as const) {
      await (await setup.waitForSelector(fieldByLabel(label), { timeout: 20_000 }))!.type(value)
    }
    await setup.click("xpath/.//button[normalize-space()='Sign in']")
    await waitInPage(setup, () => location.hash.startsWith("#/dashboard"), [], 20_000)

    // The panel in a window of its own beside the page, pinned to the page's tab, as the extension opens it when the
    // sidebar is closed (src/extension/browser/side-panel.ts): a tab in the page's window would be a background tab,
    // whose timers and frames Firefox holds back. Firefox's match patterns carry no port: the tab is found by its address.
    const tabId = (await eventually(
      () => inExtensionPage(setup, async (url: string) => (await chrome.tabs.query({})).find((tab) => tab.url === url)?.id ?? null, page.url()),
      (id) => expect(id).not.toBeNull()
    ))!
    await inExtensionPage(setup, async (tab: number) => void (await chrome.windows.create({ url: chrome.runtime.getURL(`sidepanel.html?tab=${tab}`), type: "popup", width: 420, height: 900 })), tabId)
    panel = await findExtensionPage(browser, `${FIREFOX_EXTENSION_ORIGIN}/sidepanel.html?tab=${tabId}`)
    await setup.close()
    await page.bringToFront()
    await waitInPage(panel, (name: string) => document.body.innerText.includes(name), [NAME], 20_000)
    const language = (await panel.waitForSelector("section[aria-label='Translate images'] select", { timeout: 20_000 }))!
    await language.select("fr")
  }, TIMEOUT_MS)

  afterAll(async () => {
    await stopReadingSigns()
    await browser?.close()
    await server?.stop()
    await provider?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("translates the signs on the page itself, and those the page adds later", async () => {
    await (await panel.waitForSelector(TRANSLATE_TOGGLE))!.click()
    await eventually(pressed, (value) => expect(value).toBe("true"))
    await translatedOnPage("EXIT")
    await page.evaluate(() => window.scrollTo(0, 0))
    await screenshot(page, "firefox-translate-page-1280")
    // The four in view were sent before the ones further down.
    await eventually(() => Promise.resolve(provider.sent), (sent) => expect(sent).toEqual(expect.arrayContaining(PAGE_SIGNS)), TIMEOUT_MS)
    const firstBelow = Math.min(...["WARNING", "TOILETS"].map((word) => provider.sent.indexOf(word)))
    for (const word of PAGE_SIGNS.slice(0, 4)) expect(provider.sent.indexOf(word)).toBeLessThan(firstBelow)

    await page.evaluate(() => (window as unknown as { addSigns(): void }).addSigns())
    for (const word of [...PAGE_SIGNS, ...LATER_SIGNS]) await translatedOnPage(word)
    // One AI request per image with text, each sign's line sent once; nothing for the gradient.
    expect([...provider.sent].sort()).toEqual([...PAGE_SIGNS, ...LATER_SIGNS].sort())
    const token = (await apiOf(server)("/api/auth/login", { method: "POST", body: { email: EMAIL, password: PASSWORD } })).body.data!.token as string
    await eventually(() => usage(token), (report) => expect(report.used).toBe(PAGE_SIGNS.length + LATER_SIGNS.length))
  }, TIMEOUT_MS)

  it("shows the originals with the same command, and the translations again without reading anything twice", async () => {
    const sent = provider.sent.length
    await (await panel.waitForSelector(TRANSLATE_TOGGLE))!.click()
    await eventually(pressed, (value) => expect(value).toBe("false"))
    await originalOnPage("EXIT")
    await (await panel.waitForSelector(TRANSLATE_TOGGLE))!.click()
    await eventually(pressed, (value) => expect(value).toBe("true"))
    await translatedOnPage("EXIT")
    expect(provider.sent.length).toBe(sent)
  }, TIMEOUT_MS)

  it("always translates this site's images once asked, from the device's copy on a second visit", async () => {
    const sent = provider.sent.length
    const always = "xpath/.//label[normalize-space()='Always translate images on this site']/input"
    await (await panel.waitForSelector(always))!.click()
    await eventually(() => panel.$eval(always, (box) => (box as HTMLInputElement).checked), (checked) => expect(checked).toBe(true))
    // Another site ends the mode; back on this one, it turns on by itself.
    const elsewhere = await serveHostilePage("<p>Another site</p>")
    await page.goto(elsewhere.url, { waitUntil: "load" })
    await page.goto(`${fixtures.url}/signs.html`, { waitUntil: "load" })
    await elsewhere.close()
    await translatedOnPage("EXIT")
    await translatedOnPage("CLOSED")
    expect(provider.sent.length).toBe(sent)
  }, TIMEOUT_MS)

  it("leaves the images original once the month's AI requests are used up, and says why", async () => {
    await page.goto(`${fixtures.url}/more.html`, { waitUntil: "load" })
    await waitInPage(panel, () => document.body.innerText.includes("You have used all 10 AI requests of your plan this month"), [], 45_000)
    for (const word of QUOTA_SIGNS) await originalOnPage(word)
    expect(provider.sent.filter((line) => QUOTA_SIGNS.includes(line))).toEqual([])
  }, TIMEOUT_MS)
})
