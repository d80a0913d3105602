/**
 * A Pro user's API key, end to end: made on the dashboard (with the password), shown once, used by a script
 * against the public API, then revoked on the dashboard, after which the same call is refused.
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { seriousAxeViolations } from "./axe"
import { apiOf, registerVerifiedAccount } from "./api-client"
import { eventually, launchBrowser, screenshot, watchPageErrors } from "./browser"
import { fillField } from "./forms"
import { startServer, type RunningServer } from "./server"

const EMAIL = "katherine.johnson@example.com"
const PASSWORD = "Copper-Kettle-37!"
const NAME = "Katherine Johnson"

describe("API keys on the dashboard", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const keysCard = () => page.waitForSelector("section[aria-label='API keys']")
  const usageWith = (key: string) => fetch(`${server.url}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } }).then(async (response) => ({ status: response.status, body: (await response.json()) as { data?: { month: string }; error?: { code: string } } }))

  const fill = (label: string, value: string) => fillField(page, label, value)

  beforeAll(async () => {
    server = await startServer()
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

    await fill("Key name", "ci")
    await fill("Current password", PASSWORD)
    await page.click(button("Create key"))
    const shown = await page.waitForSelector("[data-testid='new-api-key']", { timeout: 15_000 })
    const key = await shown!.evaluate((element) => element.textContent ?? "")
    expect(key).toMatch(/^iqa_[0-9A-Za-z]{43}$/)
    expect(await page.$eval("section[aria-label='API keys'] pre", (element) => element.textContent)).toBe(`curl -H "Authorization: Bearer ${key}" ${server.url}/api/v1/usage`)
    // The sign-in's toast fades first: it passes over the card while it shows.
    await page.waitForFunction(() => !document.querySelector("[data-sonner-toast]"), { timeout: 15_000 })
    await screenshot(page, "dashboard-api-key-created")
    expect(await seriousAxeViolations(page)).toEqual([])

    const used = await usageWith(key)
    expect([used.status, used.body.data?.month]).toEqual([200, new Date().toISOString().slice(0, 7)])

    await page.click(button("I have copied it"))
    await page.waitForSelector("[data-testid='new-api-key']", { hidden: true })
    await page.click("button[aria-label='Revoke ci']")
    await (await page.waitForSelector(`xpath/.//*[@role='alertdialog']//button[normalize-space()='Revoke key']`))!.click()
    await (await keysCard())!.waitForSelector("xpath/.//p[normalize-space()='You have no API keys yet.']", { timeout: 15_000 })
    await eventually(usageWith.bind(null, key), (answer) => expect([answer.status, answer.body.error?.code]).toEqual([401, "INVALID_API_KEY"]))

    await page.setViewport({ width: 375, height: 800 })
    await (await keysCard())!.scrollIntoView()
    await screenshot(page, "dashboard-api-keys-375")
    expect(errors).toEqual([])
  }, 120_000)
})
