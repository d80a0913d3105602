/**
 * *Translate images on this page* in the built extension, as the person sees it: a page of eight signs (four in
 * view, four further down, one in a scrolling box, one under a CSS transform) and a picture without text; two more
 * signs the page adds after the command. Each sign's place on the page is screenshotted and read with tesseract.js:
 * the translation's word is there and the original's is not. The model is a stand-in that translates into French.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { apiOf, registerVerifiedAccount } from "./api-client"
import { seriousAxeViolations } from "./axe"
import { eventually, installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, screenshot, waitForContentScript } from "./browser"
import { clickClosedShadowButton, closedShadowTexts } from "./closed-shadow"
import {
  LATER_SIGNS,
  originalOnPage as signOriginalOnPage,
  PAGE_SIGNS,
  QUOTA_SIGNS,
  SCROLLED_SIGN,
  startTranslator,
  stopReadingSigns,
  togglePressed,
  TRANSFORMED_SIGN,
  TRANSLATE_TOGGLE,
  translatedOnPage as signTranslatedOnPage,
  writeSignsPage
} from "./signs-fixture"
import { type RunningServer, serveFixtures, serveHostilePage, startServer } from "./server"

const EMAIL = "page.translation@example.com"
const PASSWORD = "Amber-Signal-73!"
const TIMEOUT_MS = 120_000

describe("Translate images on this page", () => {
  let provider: Awaited<ReturnType<typeof startTranslator>>
  let server: RunningServer
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let folder: string
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  let extensionToken: string

  /** Waits until the sign reads as its translation on the page, and not as itself. */
  const translatedOnPage = (word: string) => signTranslatedOnPage(page, word, TIMEOUT_MS)
  const originalOnPage = (word: string) => signOriginalOnPage(page, word)
  const badge = async () => (await closedShadowTexts(page)).find((text) => /images|AI requests/i.test(text)) ?? ""
  const pressed = () => togglePressed(panel)
  const usage = async () => (await apiOf(server)("/api/analyze/usage", { token: extensionToken })).body.data as { used: number; limit: number }

  beforeAll(async () => {
    provider = await startTranslator()
    server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test" })
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: "Page Reader" })
    const siteToken = (await apiOf(server)("/api/auth/login", { method: "POST", body: { email: EMAIL, password: PASSWORD } })).body.data!.token as string
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    extensionToken = await openExtensionSession(extension.worker, server.url, siteToken)
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-page-translation-"))
    await writeSignsPage(browser, folder)
    fixtures = await serveFixtures(folder)
    page = await browser.newPage()
    await page.goto(`${fixtures.url}/signs.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, page.url())
    panel = await openSidePanel(browser, extension, page)
    // Into French: the language the command translates into is a setting of the panel, remembered.
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

  it("translates the signs on the page itself, those in view first, and those the page adds later; the picture without text is left alone", async () => {
    await (await panel.waitForSelector(TRANSLATE_TOGGLE))!.click()
    await eventually(pressed, (value) => expect(value).toBe("true"))
    await translatedOnPage("EXIT")
    await page.evaluate(() => window.scrollTo(0, 0))
    await eventually(badge, (text) => expect(text).toMatch(/Translating images: \d+ of \d+|Images translated/))
    await screenshot(page, "translate-page-1280")

    // The four in view were sent before the ones further down.
    await eventually(() => Promise.resolve(provider.sent), (sent) => expect(sent).toEqual(expect.arrayContaining(PAGE_SIGNS)), TIMEOUT_MS)
    const firstBelow = Math.min(...["WARNING", "TOILETS"].map((word) => provider.sent.indexOf(word)))
    for (const word of PAGE_SIGNS.slice(0, 4)) expect(provider.sent.indexOf(word)).toBeLessThan(firstBelow)

    await page.evaluate(() => (window as unknown as { addSigns(): void }).addSigns())
    for (const word of [...PAGE_SIGNS, ...LATER_SIGNS]) await translatedOnPage(word)
    // One AI request per image with text: ten signs, nothing for the gradient, each sign's line sent once.
    expect([...provider.sent].sort()).toEqual([...PAGE_SIGNS, ...LATER_SIGNS].sort())
    await eventually(usage, (report) => expect(report.used).toBe(10))
    await eventually(badge, (text) => expect(text).toContain("Images translated: 10"))
    expect(await seriousAxeViolations(panel)).toEqual([])
  })

  it("keeps each translation on its image in a scrolled box and under a transform", async () => {
    await page.$eval("#scroller", (scroller) => scroller.scrollBy(0, 90))
    await translatedOnPage(SCROLLED_SIGN)
    await page.$eval(`img[data-sign='${TRANSFORMED_SIGN}']`, (image) => ((image as HTMLElement).style.transform = "translateX(120px) scale(0.8)"))
    await translatedOnPage(TRANSFORMED_SIGN)
  })

  it("shows the originals and back from the badge and the command, reading nothing again", async () => {
    const sent = provider.requests.length
    await page.evaluate(() => window.scrollTo(0, 0))
    await clickClosedShadowButton(page, "Show originals")
    await originalOnPage("EXIT")
    await clickClosedShadowButton(page, "Show translations")
    await translatedOnPage("EXIT")
    // The command again: the mode goes off and the page is as it was; once more, the translations come back.
    await (await panel.waitForSelector(TRANSLATE_TOGGLE))!.click()
    await eventually(pressed, (value) => expect(value).toBe("false"))
    await originalOnPage("OPEN")
    await (await panel.waitForSelector(TRANSLATE_TOGGLE))!.click()
    await translatedOnPage("OPEN")
    expect(provider.requests.length).toBe(sent)
  })

  it("always translates this site's images once asked, from the device's copy on a second visit", async () => {
    const sent = provider.requests.length
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
    expect(provider.requests.length).toBe(sent)
  })

  it("leaves the images original once the month's AI requests are used up, and says why with the Upgrade link", async () => {
    await page.goto(`${fixtures.url}/more.html`, { waitUntil: "load" })
    await eventually(badge, (text) => expect(text).toMatch(/You have used all 10 AI requests of your plan this month/), 45_000)
    expect(await badge()).toContain("Upgrade")
    for (const word of QUOTA_SIGNS) await originalOnPage(word)
    await page.setViewport({ width: 375, height: 700 })
    await screenshot(page, "translate-page-quota-375")
    await page.setViewport({ width: 800, height: 600 })
  })
})
