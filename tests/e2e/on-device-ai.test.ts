/**
 * AI on the device, in the built extension: the side panel is given a stand-in for Chrome's built-in AI (the
 * documented LanguageModel, Translator and LanguageDetector interfaces) before its code runs. A question and a
 * translation are answered on the device with nothing sent (the vision model's stand-in asked 0 times, the quota and
 * Sent from this device unchanged); Stop ends a streamed answer; Settings show a download's progress after the click;
 * Automatic falls back to our service when the browser says "unavailable", with the label; On this device only
 * refuses and sends nothing; a model that fails mid-answer offers our service in one click.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { installBuiltInAiStandIn, type BuiltInAiRecord, type BuiltInAiStandInConfig } from "../../src/panel/ai/built-in-ai.test-support"
import { completion, sendJson, startStandIn } from "../../server/test-kit"
import { seriousAxeViolations } from "./axe"
import { apiOf, registerVerifiedAccount } from "./api-client"
import { eventually, inWorker, installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, reloadSidePanel, screenshot, waitForContentScript } from "./browser"
import { startServer, serveFixtures, type RunningServer } from "./server"
import { TRANSLATE_TOGGLE } from "./signs-fixture"
import { drawTextImage } from "./text-image"

const EMAIL = "device.ai@example.com"
const PASSWORD = "Amber-Kettle-73!"
const LINES = ["KEEP CLEAR", "NO PARKING"]

describe("AI on the device", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let provider: Awaited<ReturnType<typeof startStandIn>>
  let server: RunningServer
  let browser: Browser
  let extension: LoadedExtension
  let page: Page
  let panel: Page
  let siteToken: string
  /** What the vision model's stand-in was asked, in order. */
  const asked: string[] = []

  const button = (text: string) => `xpath/.//button[normalize-space()=${text.includes("'") ? `"${text}"` : `'${text}'`}]`
  const textOf = (selector: string) => panel.$eval(selector, (element) => element.textContent ?? "").catch(() => null)
  const promptsAsked = () => panel.evaluate(() => (globalThis as never as { __builtInAi: BuiltInAiRecord }).__builtInAi.prompts)
  const setStandIn = (change: Partial<BuiltInAiStandInConfig>) => panel.evaluate((values) => (globalThis as never as { __builtInAi: BuiltInAiRecord }).__builtInAi.set(values), change)
  const usedThisMonth = async () => (await apiOf(server)("/api/analyze/usage", { token: siteToken })).body.data!.used as number
  const ledgerKinds = () => inWorker(extension.worker, async () => (((await chrome.storage.local.get("sentLedger")).sentLedger ?? []) as { kind: string }[]).map((entry) => entry.kind))
  const chooseEngine = async (capability: "questions" | "translation", label: string) => {
    await panel.click("#panel-tab-settings")
    const select = (await panel.waitForSelector(`[data-testid='engine-${capability}'] select`))!
    const value = await select.evaluate((element, wanted) => [...(element as HTMLSelectElement).options].find((option) => option.text === wanted)!.value, label)
    await select.select(value)
    await panel.click("#panel-tab-images")
  }
  /** Clicks a control put mid-view first: at the bottom of the view it would sit under the fixed section bar, which takes the click. */
  const clickCentered = async (selector: string) => {
    const control = (await panel.waitForSelector(selector))!
    await control.evaluate((element) => element.scrollIntoView({ block: "center" }))
    await control.click()
  }
  /** Opens the sign image and asks a question about it. */
  const ask = async (question: string) => {
    await panel.evaluate(() => window.scrollTo(0, 0))
    await (await panel.waitForSelector(button("Ask")))!.click()
    const field = (await panel.waitForSelector("#image-question"))!
    await field.click({ count: 3 })
    await field.type(question)
    await panel.keyboard.press("Enter")
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-device-ai-"))
    provider = await startStandIn((request, response) => {
      const body = JSON.parse(request.body) as { messages: { content: unknown }[] }
      const last = body.messages.at(-1)?.content
      asked.push(typeof last === "string" ? last : JSON.stringify(last))
      const lines = typeof last === "string" && last.startsWith("[") ? (JSON.parse(last) as string[]) : null
      sendJson(response, 200, completion(lines ? JSON.stringify(lines.map((line) => `[service] ${line}`)) : "Answered by the service's model."))
    })
    server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test" })
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: "Device User" })
    siteToken = (await apiOf(server)("/api/auth/login", { method: "POST", body: { email: EMAIL, password: PASSWORD } })).body.data!.token as string

    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    fs.writeFileSync(path.join(folder, "sign.png"), await drawTextImage(browser, LINES, { minHeight: 420 }))
    fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><html lang="en"><title>Sign</title><img src="/sign.png" alt="A sign">`)
    fixtures = await serveFixtures(folder)
    await openExtensionSession(extension.worker, server.url, siteToken)

    page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    const viewport = { width: 375, height: 812 }
    panel = await openSidePanel(browser, extension, page, viewport)
    // The browser's built-in AI is outside our control: its stand-in is in place before the panel's code runs again.
    const standIn = { questions: "available", translation: "available", detected: "en", pieceDelayMs: 30 } satisfies BuiltInAiStandInConfig
    panel = await reloadSidePanel(browser, extension, page, panel, { prepare: (next) => next.evaluateOnNewDocument(installBuiltInAiStandIn, standIn), viewport })
    await (await panel.waitForSelector(`li[data-url='${fixtures.url}/sign.png'] > button`, { timeout: 15_000 }))!.click()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await provider?.close()
    await fixtures?.close()
    fs.rmSync(folder, { recursive: true, force: true })
  })

  it("answers a question and translates on the device, sending nothing and counting nothing", async () => {
    const usedBefore = await usedThisMonth()
    await ask("What does the sign say?")
    // Nothing is sent: the line above the question says so, instead of what would be sent.
    await eventually(() => textOf("[data-testid='device-notice']"), (text) => expect(text).toBe("Answered on this device: the image and your question stay on it."))
    await panel.waitForSelector("[data-testid='vqa-answer']", { timeout: 20_000 })
    expect(await textOf("[data-testid='vqa-answer']")).toBe("On-device answer to: What does the sign say?")
    expect(await textOf("[data-testid='answer-source']")).toBe("Answered on this device")
    expect(await promptsAsked()).toEqual([{ question: "What does the sign say?", hasImage: true }])

    await (await panel.waitForSelector(button("Text (OCR)")))!.click()
    await panel.waitForSelector("[data-testid='ocr-text']", { timeout: 60_000 })
    // The browser's language is English, as is the sign: French is chosen to translate into.
    await (await panel.waitForSelector("section[aria-label='Translation'] select"))!.select("fr")
    await clickCentered(button("Translate"))
    await panel.waitForSelector("[data-testid='translation']", { timeout: 20_000 })
    expect(await textOf("[data-testid='translation-source']")).toMatch(/^Translated on this device into /)
    const translated = await textOf("[data-testid='translation']")
    expect(translated).toBe("[fr] KEEP CLEAR\n[fr] NO PARKING")
    await screenshot(panel, "device-ai-translation-375")

    expect(asked).toEqual([])
    expect(await usedThisMonth()).toBe(usedBefore)
    expect((await ledgerKinds()).filter((kind) => kind === "question" || kind === "translation")).toEqual([])
    // The usage line says the device's answers are not counted.
    await eventually(() => textOf("header"), (text) => expect(text).toContain("answers on this device are free and not counted"))
  }, 120_000)

  it("stops a streamed answer, keeping what came", async () => {
    await setStandIn({ answer: "This sign asks drivers to keep the way clear and not to park in front of it at any time of day.", pieceDelayMs: 250 })
    await ask("Explain the sign")
    await eventually(() => textOf("[data-testid='streaming-answer']"), (text) => expect(text?.split(" ").length).toBeGreaterThan(2), 15_000)
    await screenshot(panel, "device-ai-streaming-375")
    await clickCentered(button("Stop"))
    await eventually(() => textOf("[data-testid='answer-source']"), (text) => expect(text).toBe("Stopped · Answered on this device"), 10_000)
    const kept = (await textOf("[data-testid='vqa-answer']"))!
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(90)
    await setStandIn({ answer: undefined, pieceDelayMs: 30 })
  }, 60_000)

  it("shows the download's progress after the click, then the model ready", async () => {
    await setStandIn({ questions: "downloadable", downloadSteps: 5, downloadStepMs: 400 })
    await panel.click("#panel-tab-settings")
    await eventually(() => textOf("[data-testid='engine-state-questions']"), (text) => expect(text).toBe("Needs a one-time download of about 4 GB"))
    await panel.setViewport({ width: 1280, height: 900 })
    await (await panel.waitForSelector("section[aria-labelledby='ai-engines-heading']"))!.screenshot({ path: path.join("tests/.artifacts", "device-ai-settings-1280.png") })
    expect(await seriousAxeViolations(panel)).toEqual([])
    await panel.setViewport({ width: 375, height: 812 })
    await clickCentered(`xpath/.//div[@data-testid='engine-questions']//button[normalize-space()='Download']`)
    await eventually(() => textOf("[data-testid='engine-state-questions']"), (text) => expect(text).toMatch(/^Downloading: (1\.6|2\.4|3\.2) of 4 GB$/), 10_000)
    await screenshot(panel, "device-ai-download-375")
    await eventually(() => textOf("[data-testid='engine-state-questions']"), (text) => expect(text).toBe("Ready"), 15_000)
    await panel.click("#panel-tab-images")
  }, 60_000)

  it("falls back to our service under Automatic when the browser says unavailable, and says so", async () => {
    await setStandIn({ questions: "unavailable" })
    const usedBefore = await usedThisMonth()
    await ask("What colour is the sign?")
    await eventually(() => textOf("[data-testid='answer-source']"), (text) => expect(text).toMatch(/^Answered by Image Query AI's service \(/), 20_000)
    expect(await textOf("[data-testid='vqa-answer']")).toBe("Answered by the service's model.")
    expect(asked).toHaveLength(1)
    expect(await usedThisMonth()).toBe(usedBefore + 1)
    expect(await ledgerKinds()).toContain("question")
  }, 60_000)

  it("refuses under On this device only, sending nothing", async () => {
    await chooseEngine("questions", "On this device only")
    await ask("Is this allowed?")
    const alert = await eventually(() => textOf("[role='alert']"), (text) => expect(text).toContain("You chose “On this device only” in Settings."), 15_000)
    expect(alert).toMatch(/^Questions about images cannot be answered on this device/)
    expect(asked).toHaveLength(1)
    await chooseEngine("questions", "Automatic")
  }, 60_000)

  it("offers our service in one click when the device's model fails mid-answer", async () => {
    await setStandIn({ questions: "available", failWith: "UnknownError" })
    await ask("Why did it fail?")
    await eventually(() => textOf("[role='alert']"), (text) => expect(text).toContain("The model on this device stopped with an error"), 15_000)
    expect(asked).toHaveLength(1)
    await screenshot(panel, "device-ai-failed-375")
    await clickCentered(button("Ask Image Query AI's service instead"))
    await eventually(() => textOf("[data-testid='answer-source']"), (text) => expect(text).toMatch(/^Answered by Image Query AI's service/), 20_000)
    expect(asked).toHaveLength(2)
    await setStandIn({ failWith: null })
  }, 60_000)

  it("translates the page's images where they stand on the device, sending nothing", async () => {
    const askedBefore = asked.length
    const translatedOnDevice = () => panel.evaluate(() => (globalThis as never as { __builtInAi: BuiltInAiRecord }).__builtInAi.translations)
    const translatedBefore = (await translatedOnDevice()).length
    await setStandIn({ translation: "available", detected: "en" })
    await clickCentered(`xpath/.//button[contains(., 'All images')]`)
    await (await panel.waitForSelector("section[aria-label='Translate images'] select"))!.select("fr")
    await eventually(() => textOf("[data-testid='page-translation-cost']"), (text) => expect(text).toMatch(/^Each image’s text is read and translated on this computer by the browser’s own translator: nothing is sent/))
    await clickCentered(TRANSLATE_TOGGLE)
    await eventually(() => textOf("section[aria-label='Translate images']"), (text) => expect(text).toContain("1 image translated."), 60_000)
    // The same line-for-line translation as Show on image: each line, in order, into French.
    expect((await translatedOnDevice()).slice(translatedBefore)).toEqual(LINES.map((text) => ({ sourceLanguage: "en", targetLanguage: "fr", text })))
    expect(asked).toHaveLength(askedBefore)
    await screenshot(page, "device-ai-page-translated")
    await clickCentered(TRANSLATE_TOGGLE)
  }, 90_000)
})
