import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { readOutbox } from "../../server/test-kit"
import { launchBrowser, screenshot, waitForPageText, watchPageErrors } from "./browser"
import { startServer, type RunningServer } from "./server"

const NAME = "Grace Hopper"
const EMAIL = "grace.hopper@example.com"
const FIRST_PASSWORD = "Blue-Harbor-42!"
const SECOND_PASSWORD = "Quiet-Meadow-73?"
const THIRD_PASSWORD = "Amber-Falcon-58#"

describe("the e-mail account life cycle in Chromium", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]

  const inputFor = (label: string, scope = "") => `xpath/.${scope}//input[@id=${scope}//label[normalize-space()='${label}']/@for]`
  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const link = (text: string) => `xpath/.//a[normalize-space()='${text}']`

  /** Types into the input of a label; `scope` is an XPath step such as //*[@role='dialog']. */
  async function fill(label: string, value: string, scope = "") {
    const input = await page.waitForSelector(inputFor(label, scope))
    await input!.click({ count: 3 })
    await input!.type(value)
  }

  const waitForText = (text: string, timeout?: number) => waitForPageText(page, text, timeout)

  async function waitForPath(pathname: string) {
    await page.waitForFunction((expected: string) => location.pathname === expected, { timeout: 15_000 }, pathname)
  }

  async function latestLink(subject: string): Promise<string> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const message = (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes(EMAIL) && mail.subject === subject).at(-1)
      if (message?.link) return message.link
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`No "${subject}" e-mail for ${EMAIL} in the outbox`)
  }

  async function signIn(password: string) {
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fill("Email", EMAIL)
    await fill("Password", password)
    await page.click(button("Sign in"))
    await waitForPath("/dashboard")
    await waitForText(`Welcome back, ${NAME}.`)
  }

  async function signOut() {
    await page.click(`button[aria-label='Account menu for ${NAME}']`)
    // The menu's items are rendered once it has opened.
    const logout = await page.waitForSelector("xpath/.//*[@role='menuitem' and normalize-space()='Logout']")
    await logout!.click()
    await waitForText("Successfully logged out!")
    await page.waitForSelector("header a[href='/login']")
  }

  beforeAll(async () => {
    server = await startServer()
    browser = await launchBrowser()
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    errors = watchPageErrors(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("registers through the form, with the policy hint and the terms modal", async () => {
    await page.goto(`${server.url}/register`, { waitUntil: "networkidle0" })
    await waitForText("At least 8 characters")
    await fill("Full name", NAME)
    await fill("Email", EMAIL)
    await fill("Password", FIRST_PASSWORD)
    await fill("Confirm password", FIRST_PASSWORD)
    await waitForText("Passwords match")
    await page.click("xpath/.//label[contains(., 'I agree to the')]/input")
    await page.click(button("Create account"))
    await page.waitForSelector("[role='dialog']")
    await screenshot(page, "accounts-terms-modal")
    await page.click("xpath/.//*[@role='dialog']//label[contains(., 'I have read and agree')]//input")
    await page.click(button("Accept and continue"))
    await waitForText("Check your email")
    await waitForText(EMAIL)
  })

  it("verifies the address from the link in the outbox", async () => {
    const mailLink = await latestLink("Verify your email for Image Query AI")
    await page.goto(mailLink, { waitUntil: "networkidle0" })
    await waitForPath("/verify-email")
    await waitForText(`Your email ${EMAIL} is verified.`)
    await (await page.waitForSelector(link("Continue to sign in")))!.click()
    await waitForPath("/login")
  })

  it("signs in and shows the dashboard with the name and the Free plan", async () => {
    await signIn(FIRST_PASSWORD)
    const dashboard = await page.$eval("main", (element) => element.textContent ?? "")
    expect(dashboard).toContain("Current plan")
    expect(dashboard).toContain("Free")
    expect(dashboard).toContain(EMAIL)
    await page.waitForSelector(`button[aria-label='Account menu for ${NAME}']`)
    await screenshot(page, "accounts-dashboard")
  })

  it("changes the password and returns to the dashboard", async () => {
    // The dashboard's link, once the dashboard shows it (a click right after the previous test found none in CI).
    await (await page.waitForSelector(link("Change password")))!.click()
    await waitForPath("/change-password")
    // The dashboard stays on screen until the page's chunk has loaded, and it has a "Current password" field of
    // its own (linking Google): wait for the change-password form before typing.
    await page.waitForSelector(inputFor("Confirm new password"))
    await fill("Current password", FIRST_PASSWORD)
    await fill("New password", SECOND_PASSWORD)
    await fill("Confirm new password", SECOND_PASSWORD)
    await page.click(button("Change password"))
    await waitForText("Password changed successfully!")
    await waitForPath("/dashboard")
  })

  it("signs out, and signs in with the new password", async () => {
    await signOut()
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fill("Email", EMAIL)
    await fill("Password", FIRST_PASSWORD)
    await page.click(button("Sign in"))
    await waitForText("Invalid email or password. 4 login attempts remaining.")
    await signIn(SECOND_PASSWORD)
    await signOut()
  })

  it("resets a forgotten password from the e-mailed link and signs in with it", async () => {
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    // The login page is a chunk of its own: click once it is rendered.
    await (await page.waitForSelector(button("Forgot password?")))!.click()
    await page.waitForSelector("[role='dialog']")
    await fill("Email", EMAIL, "//*[@role='dialog']")
    await page.click(button("Send reset link"))
    await waitForText("Password reset email sent successfully!")

    const mailLink = await latestLink("Reset your Image Query AI password")
    await page.goto(mailLink, { waitUntil: "networkidle0" })
    await waitForPath("/reset-password")
    await fill("New password", THIRD_PASSWORD)
    await fill("Confirm new password", THIRD_PASSWORD)
    await page.click(button("Reset password"))
    await waitForText("Password reset successfully!")
    await waitForPath("/login")
    await signIn(THIRD_PASSWORD)
  })

  /** An API call from the page with a token the page no longer holds: the status tells whether its session lives. */
  const profileStatus = (token: string) =>
    page.evaluate(async (bearer: string) => (await fetch("/api/auth/profile", { headers: { authorization: `Bearer ${bearer}` } })).status, token)

  it("signs out everywhere: this browser and every other session of the account", async () => {
    const here = (await page.evaluate(() => localStorage.getItem("authToken")))!
    const elsewhere = await page.evaluate(
      async (email: string, password: string) => {
        const response = await fetch("/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) })
        return ((await response.json()) as { data: { token: string } }).data.token
      },
      EMAIL,
      THIRD_PASSWORD
    )
    expect(await profileStatus(elsewhere)).toBe(200)
    await page.click(button("Sign out everywhere"))
    await page.waitForSelector("xpath/.//*[@role='alertdialog']//h2[normalize-space()='Sign out everywhere?']")
    await screenshot(page, "accounts-sign-out-everywhere")
    await page.click("xpath/.//*[@role='alertdialog']//button[normalize-space()='Sign out everywhere']")
    await waitForText("Successfully logged out!")
    await page.waitForSelector("header a[href='/login']")
    expect(await profileStatus(here)).toBe(401)
    expect(await profileStatus(elsewhere)).toBe(401)
  })

  it("deletes the account once the typed e-mail and the current password confirm it", async () => {
    await signIn(THIRD_PASSWORD)
    await page.click(button("Delete account"))
    const dialog = "//*[@role='dialog']"
    await fill("Your email address", EMAIL, dialog)
    await fill("Current password", SECOND_PASSWORD, dialog)
    await page.click(button("Delete my account"))
    await waitForText("Current password is incorrect")
    await screenshot(page, "accounts-delete-wrong-password")
    await fill("Current password", THIRD_PASSWORD, dialog)
    await page.click(button("Delete my account"))
    await waitForText("Your account has been deleted.")
    await waitForPath("/login")
    await fill("Email", EMAIL)
    await fill("Password", THIRD_PASSWORD)
    await page.click(button("Sign in"))
    await waitForText("Invalid email or password.")
  })

  it("reached every step without a console error", () => {
    // The deliberate wrong passwords answer 401 (sign-in) and 400 (deletion), which the browser logs as failed resources.
    expect(errors.filter((error) => !error.includes("401") && !error.includes("400"))).toEqual([])
  })

})
