import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, BrowserContext, ElementHandle, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { readOutbox } from "../../server/test-kit"
import { eventually, launchBrowser, SCREENSHOT_DIR, screenshot, waitForPageText, watchPageErrors } from "./browser"
import { startServer, type RunningServer } from "./server"

const ADMIN = { email: "admin@example.com", password: "Stone-Harvest-2026!" }
const VISITOR = "visitor@example.com"
const MESSAGE = "The side panel misses <b>lazy</b> images on long pages."
const FIXTURES = path.resolve("tests/fixtures")

describe("feedback and the admin panel in Chromium", () => {
  let server: RunningServer
  let browser: Browser
  let page: Page
  let errors: string[]
  let downloads: string

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const inputFor = (label: string) => `xpath/.//*[@id=//label[normalize-space()='${label}']/@for]`

  async function fill(label: string, value: string, target: Page = page) {
    const input = await target.waitForSelector(inputFor(label))
    await input!.click({ count: 3 })
    await input!.type(value)
  }

  const waitForText = (text: string, target: Page = page, timeout?: number) => waitForPageText(target, text, timeout)

  async function api(pathname: string, token: string) {
    const response = await fetch(`${server.url}${pathname}`, { headers: { authorization: `Bearer ${token}` } })
    return (await response.json()) as { data: Record<string, unknown> }
  }

  beforeAll(async () => {
    server = await startServer({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password })
    browser = await launchBrowser()
    page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    errors = watchPageErrors(page)
    page.on("dialog", (dialog) => void dialog.accept())
    downloads = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-downloads-"))
    const cdp = await browser.target().createCDPSession()
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    if (downloads) fs.rmSync(downloads, { recursive: true, force: true })
  })

  it("submits feedback with two images from the landing page", async () => {
    await page.goto(`${server.url}/#feedback`)
    // The landing page is a chunk of its own: click once its form is rendered.
    await (await page.waitForSelector(button("Send Feedback")))!.click()
    await waitForText("Please fill in all required fields (email and message).")
    await fill("Email", VISITOR)
    await fill("Message", MESSAGE)
    await waitForText(`${MESSAGE.length}/1000 characters`)

    const input = await page.$("[data-testid='feedback-images']")
    const notImage = path.join(downloads, "notes.png")
    fs.writeFileSync(notImage, "plain text pretending to be a picture")
    await (input as ElementHandle<HTMLInputElement>).uploadFile(notImage)
    await waitForText("notes.png is not a valid image file. Please select JPG, PNG, or GIF files.")
    await (input as ElementHandle<HTMLInputElement>).uploadFile(path.join(FIXTURES, "square-512.png"), path.join(FIXTURES, "square-64.png"))
    await page.waitForSelector("[aria-label='Selected images'] img[alt='square-64.png']")
    expect(await page.$$eval("[aria-label='Selected images'] li", (items) => items.length)).toBe(2)
    await (await page.$("#feedback"))!.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "feedback-form-filled.png") })

    await page.click(button("Send Feedback"))
    await waitForText("Thank you! Your feedback has been submitted successfully. We will review it and get back to you soon.")
    expect(await page.$eval(inputFor("Message"), (element) => (element as HTMLTextAreaElement).value)).toBe("")
    expect(await page.$$("[aria-label='Selected images'] li")).toHaveLength(0)
    // The outbox sends after the answer: wait for the mail rather than read the outbox at once.
    await eventually(
      async () => (await readOutbox(server.dataDir)).find((mail) => mail.to.includes(VISITOR)),
      (confirmation) => expect(confirmation?.subject).toBe("We received your feedback for Image Query AI")
    )
  })

  it("signs in as admin and sees the overview from real figures", async () => {
    await page.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fill("Email", ADMIN.email)
    await fill("Password", ADMIN.password)
    await page.click(button("Sign in"))
    await page.waitForFunction(() => location.pathname === "/dashboard")
    await page.goto(`${server.url}/admin`)
    await waitForText("Quick Overview")
    for (const title of ["Password Policy", "Feedback", "Users", "Analytics", "Content", "Billing", "Security"]) {
      await page.waitForSelector(`xpath/.//a[.//span[normalize-space()='${title}']]`)
    }
    await page.waitForSelector("[data-testid='overview-users']")
    expect(await page.$eval("[data-testid='overview-users']", (element) => element.textContent)).toBe("1")
    expect(await page.$eval("[data-testid='overview-policies']", (element) => element.textContent)).toBe("11")
    expect(await page.$eval("[data-testid='overview-health']", (element) => element.textContent)).toBe("100%")
    await screenshot(page, "admin-dashboard")
  })

  it("shows the feedback with thumbnails, the viewer, a reply and its e-mail, the filters and the delete", async () => {
    await page.goto(`${server.url}/admin/feedback`)
    await waitForText(VISITOR)
    await waitForText("Feedback (1)")
    await page.waitForFunction(() => document.querySelectorAll("[data-testid='row-thumbnails'] img").length === 2)
    await page.click(`xpath/.//button[.//span[normalize-space()='${VISITOR}']]`)
    // User text is shown as text: the markup in the message stays visible, never parsed.
    await waitForText(MESSAGE)
    expect(await page.$("article b")).toBeNull()
    await page.waitForFunction(() => document.querySelectorAll("[aria-label='Attached images'] img").length === 2)
    await screenshot(page, "admin-feedback-detail")

    await page.click("button[aria-label='Open image 1']")
    await waitForText("Image 1 of 2")
    await page.keyboard.press("ArrowRight")
    await waitForText("Image 2 of 2")
    await page.keyboard.press("ArrowRight")
    await waitForText("Image 1 of 2")
    await page.click("button[aria-label='Show image 2']")
    await waitForText("Image 2 of 2")
    // The viewer covers the viewport: a full-page capture would show the page below it uncovered.
    await page.screenshot({ optimizeForSpeed: true, path: path.join(SCREENSHOT_DIR, "admin-feedback-viewer.png") })
    await page.keyboard.press("Escape")
    await page.waitForFunction(() => !document.querySelector("[role='dialog']"))

    await page.waitForSelector("xpath/.//button[normalize-space()='Send Reply' and @disabled]")
    await fill("Your reply", "Thanks! Lazy images are found since version 1.1.")
    await page.click(button("Send Reply"))
    await waitForText("Reply sent successfully")
    await waitForText("Reply #1")
    expect(await page.$eval(inputFor("Status"), (element) => (element as HTMLSelectElement).value)).toBe("replied")
    await waitForText("Replied (1)")
    await eventually(
      async () => (await readOutbox(server.dataDir)).find((mail) => mail.to.includes(VISITOR) && mail.subject.startsWith("A reply")),
      (reply) => expect(reply?.text).toContain("Lazy images are found since version 1.1.")
    )
    await screenshot(page, "admin-feedback-replied")

    await page.click("xpath/.//*[@aria-pressed and contains(., 'Pending')]")
    await waitForText("No pending feedbacks")
    await page.click("xpath/.//*[@aria-pressed and contains(., 'Replied')]")
    // The open item stays in the detail pane: wait for the row of the filtered list itself.
    const row = await page.waitForSelector(`button[aria-label='Delete feedback from ${VISITOR}']`)
    await row!.click()
    await waitForText("Feedback deleted successfully")
    await waitForText("No replied feedbacks")
    await page.click("xpath/.//*[@aria-pressed and starts-with(normalize-space(), 'All')]")
    await waitForText("No feedbacks yet")
    await waitForText("Select a feedback to view details and reply")
  })

  it("changes minLength to 12; the register hint and the server follow; export, a refused import and an accepted one", async () => {
    await page.goto(`${server.url}/admin/password-policy`)
    const minLength = await page.waitForSelector(inputFor("Characters (Minimum length)"))
    await minLength!.click({ count: 3 })
    await minLength!.type("12")
    await page.click("button[aria-label='Save Minimum length']")
    await waitForText("Minimum length saved.")
    await screenshot(page, "admin-password-policy")
    // Success notices fade (ADMIN_NOTICE_FADE_MS).
    await page.waitForFunction(() => !document.querySelector("[data-testid='policy-notice']"), { timeout: 10_000 })

    const visitor: BrowserContext = await browser.createBrowserContext()
    const registerPage = await visitor.newPage()
    await registerPage.goto(`${server.url}/register`)
    await waitForText("At least 12 characters", registerPage)
    await fill("Full name", "Ada Lovelace", registerPage)
    await fill("Email", "ada@example.com", registerPage)
    await fill("Password", "Ab-3fGh!kQ", registerPage)
    await fill("Confirm password", "Ab-3fGh!kQ", registerPage)
    await registerPage.click("xpath/.//label[contains(., 'I agree to the')]/input")
    await registerPage.click(button("Create account"))
    await registerPage.waitForSelector("[role='dialog']")
    await registerPage.click("xpath/.//*[@role='dialog']//label[contains(., 'I have read and agree')]//input")
    await registerPage.click(button("Accept and continue"))
    await waitForText("Password must be at least 12 characters long", registerPage)
    await visitor.close()

    await page.click(button("Export"))
    const exported = path.join(downloads, "password-policy.json")
    // The file is there before Chromium has written it all (a run read it empty): read until it holds the policy.
    const exportedPolicy = await eventually(
      async () => JSON.parse(fs.readFileSync(exported, "utf8")) as { rules: { minLength: { value: number } } },
      (policy) => expect(policy.rules.minLength.value).toBe(12)
    )

    const token = await page.evaluate(() => localStorage.getItem("authToken"))
    const importInput = await page.$("[data-testid='policy-import']")
    const broken = path.join(downloads, "broken.json")
    fs.writeFileSync(broken, JSON.stringify({ ...exportedPolicy, rules: { ...exportedPolicy.rules, minLength: { value: "twelve" } } }))
    await (importInput as ElementHandle<HTMLInputElement>).uploadFile(broken)
    await waitForText("broken.json was not imported: nothing changed.")
    await waitForText("rules.minLength")
    await screenshot(page, "admin-password-policy-import-refused")
    expect(((await api("/api/password-policy/config", token!)).data.config as { rules: { minLength: { value: number } } }).rules.minLength.value).toBe(12)

    await page.click(button("Reset to default"))
    await waitForText("The default policy was restored.")
    expect(((await api("/api/password-policy/config", token!)).data.config as { rules: { minLength: { value: number } } }).rules.minLength.value).toBe(8)

    await (importInput as ElementHandle<HTMLInputElement>).uploadFile(exported)
    await waitForText("Policy imported from password-policy.json.")
    expect(((await api("/api/password-policy/config", token!)).data.config as { rules: { minLength: { value: number } } }).rules.minLength.value).toBe(12)
    expect(errors.filter((error) => !error.includes("status of 4"))).toEqual([])
  })
})
