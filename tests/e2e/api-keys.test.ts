/**
 * A Pro user's API key, end to end: made on the dashboard (with the password), shown once, used by a script
 * to read the text of an image through /api/v1/ocr, whose call the dashboard's usage chart and table then show on today's row; then revoked on
 * the dashboard, after which the same call is refused.
 */
import path from "node:path"

import type { Browser, ElementHandle, Page } from "puppeteer-core"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { seriousAxeViolations } from "./axe"
import { apiOf, registerVerifiedAccount } from "./api-client"
import { eventually, launchBrowser, screenshot, SCREENSHOT_DIR, watchPageErrors } from "./browser"
import { fillField } from "./forms"
import { startServer, type RunningServer } from "./server"

const EMAIL = "katherine.johnson@example.com"
const PASSWORD = "Copper-Kettle-37!"
const NAME = "Katherine Johnson"

describe("API keys on the dashboard", () => {
  let server: RunningServer
  let textImage: Buffer
  let browser: Browser
  let page: Page
  let errors: string[]

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const keysCard = () => page.waitForSelector("section[aria-label='API keys']")
  /** What a customer's script does with the key: upload a picture of text to /api/v1/ocr. */
  const readTextWith = async (key: string, image: Buffer) => {
    const form = new FormData()
    form.append("image", new Blob([new Uint8Array(image)], { type: "image/png" }), "page.png")
    const response = await fetch(`${server.url}/api/v1/ocr`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form })
    return { status: response.status, body: (await response.json()) as { data?: { text: string }; error?: { code: string } } }
  }

  const fill = (label: string, value: string) => fillField(page, label, value)
  const usageSection = () => page.waitForSelector("xpath/.//section[h2[normalize-space()='API keys']]//section[.//h3[normalize-space()='API calls in the last 30 days']]")
  /** The cells of the usage table's row for `day` ("Fri 27 Nov"), as read on the page. */
  const tableRow = async (day: string) => {
    const row = await page.waitForSelector(`xpath/.//table//tr[th[normalize-space()='${day}']]`, { timeout: 15_000 })
    return row!.$$eval("th, td", (cells) => cells.map((cell) => cell.textContent?.trim()))
  }
  /** The card alone, as people see it at the viewport's width: centred in a viewport tall enough, clear of the sticky site header. */
  const shootCard = async (card: ElementHandle, name: string) => {
    await card.evaluate((element) => element.scrollIntoView({ block: "center" }))
    await card.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, `${name}.png`) as `${string}.png` })
  }

  beforeAll(async () => {
    const lines = ["INVOICE 2026", "TOTAL DUE 120 EUR"].map((line, index) => `<text x="30" y="${70 + index * 70}" font-family="sans-serif" font-size="44">${line}</text>`)
    textImage = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="800" height="180"><rect width="100%" height="100%" fill="#fff"/>${lines.join("")}</svg>`)).png().toBuffer()
    // One worker thread for the API's models: the test makes two calls.
    server = await startServer({ VISION_THREADS: "1" })
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: NAME })
    // Pro through the test-mode trial: API keys come with it.
    const api = apiOf(server)
    const token = (await api("/api/auth/login", { method: "POST", body: { email: EMAIL, password: PASSWORD } })).body.data!.token as string
    expect((await api("/api/billing/trial", { method: "POST", token, body: { planId: "pro" } })).status).toBe(201)
    browser = await launchBrowser()
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    errors = watchPageErrors(page)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("creates a key shown once, which a script uses; revoked, the same call is refused", async () => {
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fill("Email", EMAIL)
    await fill("Password", PASSWORD)
    await page.click(button("Sign in"))
    await page.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 })
    await (await keysCard())!.waitForSelector("xpath/.//p[normalize-space()='You have no API keys yet.']")
    await (await usageSection())!.waitForSelector("xpath/.//p[normalize-space()='No API calls in the last 30 days.']")
    // The sign-in's toast fades first: it passes over the card while it shows, and takes a click meant for a field.
    await page.waitForFunction(() => !document.querySelector("[data-sonner-toast]"), { timeout: 15_000 })

    await fill("Key name", "ci")
    await fill("Current password", PASSWORD)
    await page.click(button("Create key"))
    const shown = await page.waitForSelector("[data-testid='new-api-key']", { timeout: 15_000 })
    const key = await shown!.evaluate((element) => element.textContent ?? "")
    expect(key).toMatch(/^iqa_[0-9A-Za-z]{43}$/)
    expect(await page.$eval("section[aria-label='API keys'] pre", (element) => element.textContent)).toBe(
      `curl -H "Authorization: Bearer ${key}" -F image=@picture.png ${server.url}/api/v1/ocr`
    )
    await screenshot(page, "dashboard-api-key-created")
    expect(await seriousAxeViolations(page)).toEqual([])

    // The script reads the text of an image with the key; the call is counted on its UTC day, as the site shows it.
    const read = await readTextWith(key, textImage)
    expect([read.status, read.body.data?.text]).toEqual([200, "INVOICE 2026\nTOTAL DUE 120 EUR"])
    const today = new Date().toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" })

    await page.click(button("I have copied it"))
    await page.waitForSelector("[data-testid='new-api-key']", { hidden: true })

    // Back on the dashboard later: the chart (its own chunk) shows the call, and its table the same figures.
    await page.reload()
    const usage = (await usageSection())!
    await usage.waitForSelector("figure svg.recharts-surface", { timeout: 15_000 })
    expect(await usage.$$eval("figure li", (items) => items.map((item) => item.textContent))).toEqual(["OCR1", "Faces0", "Objects0", "Ask0", "Translate0"])
    await shootCard((await keysCard())!, "dashboard-api-usage-chart-1280")
    expect(await seriousAxeViolations(page)).toEqual([])
    await page.click(button("Show as table"))
    expect(await tableRow(today)).toEqual([today, "1", "0", "0", "0", "0", "1"])
    await shootCard((await keysCard())!, "dashboard-api-usage-table-1280")
    expect(await seriousAxeViolations(page)).toEqual([])
    await page.click(button("Show as table"))
    await usage.waitForSelector("figure svg.recharts-surface")
    await (await page.waitForSelector("button[aria-label='Revoke ci']"))!.click()
    await (await page.waitForSelector(`xpath/.//*[@role='alertdialog']//button[normalize-space()='Revoke key']`))!.click()
    await (await keysCard())!.waitForSelector("xpath/.//p[normalize-space()='You have no API keys yet.']", { timeout: 15_000 })
    await eventually(() => readTextWith(key, textImage), (answer) => expect([answer.status, answer.body.error?.code]).toEqual([401, "INVALID_API_KEY"]))

    await page.setViewport({ width: 375, height: 800 })
    await (await keysCard())!.scrollIntoView()
    await screenshot(page, "dashboard-api-keys-375")
    // A revoked key's calls stay counted. At 375 px neither the chart nor its table makes the page scroll sideways.
    await page.setViewport({ width: 375, height: 1400 })
    await shootCard((await keysCard())!, "dashboard-api-usage-chart-375")
    await page.click(button("Show as table"))
    expect(await tableRow(today)).toEqual([today, "1", "0", "0", "0", "0", "1"])
    await shootCard((await keysCard())!, "dashboard-api-usage-table-375")
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
    expect(errors).toEqual([])
  }, 120_000)
})
