/**
 * Sent from this device, in the built extension: a translation of an image's text goes through our API to the model
 * stand-in, is listed in Settings with its size in characters and the page's host, and Clear empties the list; the
 * one line saying what a translation sends shows before the first one from the page's host, and not after.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { completion, sendJson, startStandIn } from "../../server/test-kit"
import { seriousAxeViolations } from "./axe"
import { apiOf, registerVerifiedAccount } from "./api-client"
import { eventually, inWorker, installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, SCREENSHOT_DIR, waitForContentScript } from "./browser"
import { startServer, serveFixtures, type RunningServer } from "./server"
import { drawTextImage } from "./text-image"

const EMAIL = "ledger.user@example.com"
const PASSWORD = "Amber-Kettle-73!"
const LINES = ["KEEP CLEAR", "NO PARKING"]

describe("Sent from this device", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let provider: Awaited<ReturnType<typeof startStandIn>>
  let server: RunningServer
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  /** The texts the model stand-in was asked to translate. */
  const translated: string[] = []

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const notice = () => panel.$eval("[data-testid='send-notice']", (element) => element.textContent ?? "").catch(() => null)
  /** The rows of Settings → Sent from this device: the kind, what was sent (its lines) and the page. */
  const ledgerRows = () =>
    panel.$$eval("[data-testid='sent-ledger'] tbody tr", (rows) =>
      rows.map((row) => {
        const [, what, page] = row.querySelectorAll("td")
        return [row.getAttribute("data-kind"), [...what!.children].map((line) => line.textContent).join(" / "), page!.textContent]
      })
    )

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-sent-ledger-"))
    provider = await startStandIn((request, response) => {
      const body = JSON.parse(request.body) as { messages: { role?: string; content: unknown }[] }
      // An image's lines come as a JSON array, and go back as one.
      const lines = JSON.parse(String(body.messages.at(-1)?.content)) as string[]
      translated.push(lines.join("\n"))
      sendJson(response, 200, completion(JSON.stringify(lines.map((line) => `[translated] ${line}`))))
    })
    server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test" })
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: "Ledger User" })
    const siteToken = (await apiOf(server)("/api/auth/login", { method: "POST", body: { email: EMAIL, password: PASSWORD } })).body.data!.token as string

    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    // At least 400 px high: the panel hides smaller images by default.
    fs.writeFileSync(path.join(folder, "sign.png"), await drawTextImage(browser, LINES, { minHeight: 420 }))
    fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><html lang="en"><title>Sign</title><img src="/sign.png" alt="A sign">`)
    fixtures = await serveFixtures(folder)
    // The extension's own session, opened with the site's token as the site's sign-in message makes it do.
    await openExtensionSession(extension.worker, server.url, siteToken)

    page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    panel = await openSidePanel(browser, extension, page, { width: 375, height: 812 })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await provider?.close()
    await fixtures?.close()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  it("says what a translation sends before the first one, lists it with its size and host, and clears the list", async () => {
    const host = new URL(fixtures.url).host
    await (await panel.waitForSelector(`li[data-url='${fixtures.url}/sign.png'] > button`, { timeout: 15_000 }))!.click()
    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
    await panel.waitForSelector("[data-testid='ocr-text']", { timeout: 60_000 })

    // Before the first translation from this host: one line, what is sent and to whom.
    const before = await eventually(notice, (text) => expect(text).toMatch(/^Translating sends this text \(\d+ characters\) to Image Query AI's server, which passes it to a third-party vision model provider\.$/))
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await (await panel.$("section[aria-label='Translation']"))!.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "sent-notice-translate-375.png") })
    const translate = (await panel.waitForSelector(button("Translate")))!
    // Put mid-view: at the bottom of the view the button sits under the fixed section bar, which would take the click.
    await translate.evaluate((element) => element.scrollIntoView({ block: "center" }))
    await translate.click()
    await panel.waitForSelector("[data-testid='translation']", { timeout: 20_000 })
    // The text the server passed on is the text the line counted.
    expect(translated).toHaveLength(1)
    const characters = Array.from(translated[0]!).length
    expect(before).toContain(`(${characters} characters)`)
    // Once sent, not said again for this host.
    await eventually(notice, (text) => expect(text).toBeNull())

    // Asking would send the image as it is (a small PNG): the line says its size.
    await panel.evaluate(() => window.scrollTo(0, 0))
    await panel.click(button("Ask"))
    const kilobytes = Math.max(1, Math.round(fs.statSync(path.join(folder, "sign.png")).size / 1000))
    await eventually(notice, (text) => expect(text).toBe(`Asking sends this image (about ${kilobytes} KB) and your question to Image Query AI's server, which passes them to a third-party vision model provider.`), 20_000)
    await (await panel.$("form:has(#image-question)"))!.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "sent-notice-ask-375.png") })

    await panel.click("#panel-tab-settings")
    await panel.waitForSelector("[data-testid='sent-ledger']")
    const rows = await eventually(ledgerRows, (found) => expect(found.map((row) => row[0])).toContain("translation"))
    const translation = rows.find((row) => row[0] === "translation")!
    expect(translation.slice(1)).toEqual([`Translation / ${characters} characters`, host])
    // The panel's other requests of the page are listed too: the language list it asked for on opening.
    expect(rows.find((row) => row[0] === "languageList")?.slice(1)).toEqual(["Language list / No content", host])
    const section = (await panel.$("[data-testid='sent-ledger']"))!
    await section.scrollIntoView()
    await section.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "sent-ledger-375.png") })
    expect(await seriousAxeViolations(panel)).toEqual([])

    await panel.click("xpath/.//section[@data-testid='sent-ledger']//button[normalize-space()='Clear']")
    const dialog = (await panel.waitForSelector("[role='alertdialog']"))!
    await panel.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "sent-ledger-clear-375.png") })
    await (await dialog.waitForSelector(button("Clear")))!.click()
    await panel.waitForSelector("xpath/.//section[@data-testid='sent-ledger']//p[starts-with(normalize-space(), 'Nothing sent in the last 30 days')]")
    expect(await ledgerRows()).toEqual([])
    expect(await inWorker(extension.worker, async () => (await chrome.storage.local.get("sentLedger")).sentLedger ?? null)).toBeNull()
    // Its steps may wait 60 s for the first reading and 20 s for the translation on a busy machine: a whole-test limit
    // of 60 s cut a slow run short (as in one full run) instead of saying which step was slow.
  }, 180_000)
})
