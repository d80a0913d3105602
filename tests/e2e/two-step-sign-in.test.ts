/**
 * Two-step sign-in through the site in Chromium: an account sets up an authenticator app on its dashboard (the test
 * reads the key the page shows, as a person types it into the app), then signs in on /login with its password and the
 * app's code, and again with a recovery code, which the owner is told of by e-mail. Looked at at 1280 and 375 px, with axe.
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { codeAt } from "../../server/auth/mfa/authenticator"
import { readOutbox } from "../../server/test-kit"
import { seriousAxeViolations } from "./axe"
import { registerVerifiedAccount } from "./api-client"
import { eventually, launchBrowser, screenshot, waitForPageText, watchPageErrors } from "./browser"
import { fillField } from "./forms"
import { startServer, type RunningServer } from "./server"

const NAME = "Hedy Lamarr"
const EMAIL = "hedy.lamarr@example.com"
const PASSWORD = "Silver-Antenna-44!"

describe("two-step sign-in through the site", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]
  let secret: string
  let recoveryCodes: string[]

  const button = (text: string, scope = "") => `xpath/.${scope}//button[normalize-space()='${text}']`
  const CARD = "//section[@aria-label='Two-step sign-in']"
  /** `scope`: an XPath step to the part of the page the label is in (the dashboard has more than one password field). */
  const fill = (label: string, value: string, scope = "") => fillField(page, label, value, scope)
  const waitForPath = (pathname: string) => page.waitForFunction((expected: string) => location.pathname === expected, { timeout: 15_000 }, pathname)

  async function passwordStep() {
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fill("Email", EMAIL)
    await fill("Password", PASSWORD)
    await page.click(button("Sign in"))
    await page.waitForSelector("form[aria-labelledby='second-step-heading']")
    await waitForPageText(page, "Enter the 6-digit code from your authenticator app")
  }

  /** From the header's account menu, at the desktop width where the header shows it. */
  async function signOut() {
    await page.setViewport({ width: 1280, height: 900 })
    await page.click(`button[aria-label='Account menu for ${NAME}']`)
    await (await page.waitForSelector("xpath/.//*[@role='menuitem' and normalize-space()='Logout']"))!.click()
    await page.waitForSelector("header a[href='/login']")
  }

  beforeAll(async () => {
    server = await startServer()
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: NAME })
    browser = await launchBrowser()
    page = await browser.newPage()
    errors = watchPageErrors(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("sets up an authenticator app on the dashboard: the QR code, the key, the first code, the recovery codes", async () => {
    await page.setViewport({ width: 1280, height: 900 })
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fill("Email", EMAIL)
    await fill("Password", PASSWORD)
    await page.click(button("Sign in"))
    await waitForPath("/dashboard")
    const card = `xpath/.${CARD}`
    await (await page.waitForSelector(card))!.scrollIntoView()
    await fill("Current password", PASSWORD, CARD)
    await page.click(button("Set up two-step sign-in", CARD))
    // The key the page shows, as a person types it into the app.
    secret = (await (await page.waitForSelector("[data-testid='totp-secret']"))!.evaluate((element) => element.textContent ?? "")).trim()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    await page.waitForSelector("img[alt='QR code for your authenticator app']")
    await (await page.$(card))!.screenshot({ path: "tests/.artifacts/two-step-setup-1280.png" })
    expect(await seriousAxeViolations(page)).toEqual([])
    await fill("6-digit code from the app", codeAt(secret, Date.now()), CARD)
    await page.click(button("Turn on", CARD))
    await page.waitForSelector("[data-testid='recovery-codes'] li")
    recoveryCodes = await page.$$eval("[data-testid='recovery-codes'] li", (items) => items.map((item) => item.textContent ?? ""))
    expect(recoveryCodes).toHaveLength(10)
    await (await page.$(card))!.screenshot({ path: "tests/.artifacts/two-step-recovery-codes-1280.png" })
    await page.click(button("I have saved them"))
    await waitForPageText(page, "Two-step sign-in is on")
    await signOut()
  })

  it("signs in with the password, then the code of the authenticator app", async () => {
    await page.setViewport({ width: 1280, height: 900 })
    await passwordStep()
    await screenshot(page, "two-step-code-1280")
    expect(await seriousAxeViolations(page)).toEqual([])
    // The code of the next 30-second step: the one that enabled the app is spent, and the server takes one step ahead.
    await fill("6-digit code", codeAt(secret, Date.now() + 30_000))
    await page.click(button("Verify"))
    await waitForPath("/dashboard")
    await waitForPageText(page, `Welcome back, ${NAME}.`)
    await signOut()
  })

  it("signs in with a recovery code instead, once, and the owner is told", async () => {
    await page.setViewport({ width: 375, height: 812 })
    await passwordStep()
    await page.click(button("Use a recovery code"))
    await fill("Recovery code", recoveryCodes[0]!)
    await screenshot(page, "two-step-recovery-375")
    expect(await seriousAxeViolations(page)).toEqual([])
    await page.click(button("Verify"))
    await waitForPath("/dashboard")
    await eventually(
      async () => (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes(EMAIL)).map((mail) => mail.subject),
      (subjects) => expect(subjects).toContain("A recovery code was used to sign in to your account"),
      15_000
    )
    await signOut()

    // The same code again is refused in the form.
    await page.setViewport({ width: 375, height: 812 })
    await passwordStep()
    await page.click(button("Use a recovery code"))
    await fill("Recovery code", recoveryCodes[0]!)
    await page.click(button("Verify"))
    await waitForPageText(page, "That code is not right. 4 tries left.")
    expect(errors.filter((error) => !error.includes("401"))).toEqual([])
  })
})
