/**
 * ADMIN_MFA=required (production's default) through the site in Chromium: an admin without a second factor opens
 * /admin and is told why it is closed, follows the link to the dashboard's Two-step sign-in card, sets up the
 * authenticator app there (the test reads the key the page shows), and the admin panel opens. At 375 and 1280 px,
 * with axe.
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { codeAt } from "../../server/auth/mfa/authenticator"
import { seriousAxeViolations } from "./axe"
import { launchBrowser, screenshot, waitForPageText, watchPageErrors } from "./browser"
import { fillField } from "./forms"
import { startServer, type RunningServer } from "./server"

const ADMIN = { email: "security.admin@example.com", password: "Granite-Ledger-61!" }
const CARD = "//section[@aria-label='Two-step sign-in']"

describe("an admin without two-step sign-in, with ADMIN_MFA=required", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]

  const fill = (label: string, value: string, scope = "") => fillField(page, label, value, scope)
  /** From the keyboard: focus, then Enter. */
  async function press(selector: string) {
    const target = await page.waitForSelector(selector)
    await target!.focus()
    await page.keyboard.press("Enter")
  }
  const waitForPath = (pathname: string) => page.waitForFunction((expected: string) => location.pathname === expected, { timeout: 15_000 }, pathname)

  beforeAll(async () => {
    server = await startServer({ ADMIN_MFA: "required", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
    browser = await launchBrowser()
    page = await browser.newPage()
    errors = watchPageErrors(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("is told on /admin why the panel is closed, and led to the dashboard's setup", async () => {
    await page.setViewport({ width: 375, height: 812 })
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fill("Email", ADMIN.email)
    await fill("Password", ADMIN.password)
    await press("xpath/.//button[normalize-space()='Sign in']")
    await waitForPath("/dashboard")
    await page.goto(`${server.url}/admin`, { waitUntil: "networkidle0" })
    await waitForPageText(page, "Two-step sign-in required")
    await screenshot(page, "admin-two-step-required-375")
    expect(await seriousAxeViolations(page)).toEqual([])
    await press("xpath/.//a[normalize-space()='Set up two-step sign-in']")
    await waitForPath("/dashboard")
    expect(await page.evaluate(() => location.hash)).toBe("#two-step")
    // The card is scrolled into view.
    await page.waitForFunction((xpath: string) => {
      const card = document.evaluate(xpath, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue as Element | null
      const box = card?.getBoundingClientRect()
      return box !== undefined && box.top < innerHeight && box.bottom > 0
    }, {}, CARD)
  })

  it("opens the admin panel once the authenticator app is on", async () => {
    await page.setViewport({ width: 1280, height: 900 })
    await fill("Current password", ADMIN.password, CARD)
    await press(`xpath/.${CARD}//button[normalize-space()='Set up two-step sign-in']`)
    const secret = (await (await page.waitForSelector("[data-testid='totp-secret']"))!.evaluate((element) => element.textContent ?? "")).trim()
    await fill("6-digit code from the app", codeAt(secret, Date.now()), CARD)
    await press(`xpath/.${CARD}//button[normalize-space()='Turn on']`)
    await press("xpath/.//button[normalize-space()='I have saved them']")
    await waitForPageText(page, "Two-step sign-in is on")
    await page.goto(`${server.url}/admin`, { waitUntil: "networkidle0" })
    await page.waitForSelector("xpath/.//h1[normalize-space()='Admin Dashboard']", { timeout: 15_000 })
    await screenshot(page, "admin-after-two-step-1280")
    expect(errors.filter((error) => !error.includes("403"))).toEqual([])
  })
})
