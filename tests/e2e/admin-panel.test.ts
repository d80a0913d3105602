/**
 * The admin panel running the business, end to end (issue 27): an admin finds a customer by e-mail, sets their
 * Enterprise limit and disables them — the customer's open side panel shows them signed out on its next call — and
 * sees the change in the audit log; publishes a post that a visitor then reads on /blog; and the analytics page shows
 * today's question. Each new page is looked at (screenshots at 1280 and 375 px) and checked with axe.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, BrowserContext, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { completion, sendJson, startStandIn } from "../../server/test-kit"
import { seriousAxeViolations } from "./axe"
import { apiOf, payInTestMode, registerVerifiedAccount, type Api } from "./api-client"
import { eventually, installExtension, launchBrowser, type LoadedExtension, openExtensionSession, openSidePanel, screenshot, waitForPageText, watchPageErrors } from "./browser"
import { fieldByLabel, fillField } from "./forms"
import { solidPng } from "./png"
import { serveFixtures, startServer, type RunningServer } from "./server"

const ADMIN = { email: "ops.admin@example.com", password: "Quiet-Lantern-83!" }
const CUSTOMER = { email: "carla.customer@example.com", password: "Green-Anchor-61!", name: "Carla Customer" }
const POST_TITLE = "Reading receipts in the side panel"

const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
const inDialog = (text: string) => `xpath/.//*[@role='alertdialog']//button[normalize-space()='${text}']`

describe("the admin panel", () => {
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let provider: Awaited<ReturnType<typeof startStandIn>>
  let server: RunningServer
  let api: Api
  let browser: Browser
  let extension: LoadedExtension
  let adminContext: BrowserContext
  let admin: Page
  let adminErrors: string[]
  let panel: Page

  /** Screenshots at both widths and axe, on the page as it is now, once any toast has gone (axe reads a fading one's blend). */
  async function lookAt(name: string) {
    await admin.waitForFunction(() => !document.querySelector("[data-sonner-toast]"), { timeout: 15_000 })
    for (const width of [375, 1280]) {
      await admin.setViewport({ width, height: 900 })
      // Nothing wider than the screen once laid out again (charts follow a resize a frame or two later): the elements
      // that stick out, named, when something does.
      const overflowing = () =>
        admin.evaluate(() =>
          document.documentElement.scrollWidth <= window.innerWidth
            ? []
            : [...document.querySelectorAll("body *")].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1).map((element) => `${element.tagName.toLowerCase()}.${element.getAttribute("class")?.slice(0, 60)}`).slice(0, 5)
        )
      await eventually(overflowing, (found) => expect(found, `${name} at ${width} px`).toEqual([]), 5_000)
      await screenshot(admin, `admin-${name}-${width}`)
    }
    expect(await seriousAxeViolations(admin), name).toEqual([])
  }

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-admin-"))
    fs.writeFileSync(path.join(folder, "index.html"), `<!doctype html><html lang="en"><title>A page</title><img src="photo.png" alt="A photo" width="600" height="400">`)
    fs.writeFileSync(path.join(folder, "photo.png"), solidPng(600, 400, [200, 120, 60]))
    fixtures = await serveFixtures(folder)
    provider = await startStandIn((_request, response) => sendJson(response, 200, completion("An orange rectangle.")))
    server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }, { publicUrlIsServer: true })
    api = apiOf(server)

    // A paying Enterprise customer, with the extension signed in and its side panel open.
    await registerVerifiedAccount(server, CUSTOMER)
    const token = (await api("/api/auth/login", { method: "POST", body: { email: CUSTOMER.email, password: CUSTOMER.password } })).body.data!.token as string
    await payInTestMode(server, token, CUSTOMER, "enterprise")
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    await openExtensionSession(extension.worker, server.url, token)
    const page = await browser.newPage()
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    panel = await openSidePanel(browser, extension, page, { width: 375, height: 700 })

    adminContext = await browser.createBrowserContext()
    admin = await adminContext.newPage()
    await admin.setViewport({ width: 1280, height: 900 })
    adminErrors = watchPageErrors(admin)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await provider?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("the customer asks a question in the side panel", async () => {
    await (await panel.waitForSelector(`li[data-url='${fixtures.url}/photo.png'] > button`, { timeout: 15_000 }))!.click()
    await (await panel.waitForSelector(button("Ask")))!.click()
    await (await panel.waitForSelector("#image-question"))!.type("What is it?")
    await panel.click("form button[type='submit']")
    await panel.waitForFunction(() => document.querySelector("[data-testid='vqa-answer']")?.textContent === "An orange rectangle.", { timeout: 20_000 })
  })

  it("finds the customer by e-mail and sets their Enterprise limit", async () => {
    await admin.goto(`${server.url}/login`, { waitUntil: "networkidle0" })
    await fillField(admin, "Email", ADMIN.email)
    await fillField(admin, "Password", ADMIN.password)
    await admin.click(button("Sign in"))
    await admin.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 })
    await admin.goto(`${server.url}/admin`)
    // The Quick Overview's Users figure leads to the users' page.
    await (await admin.waitForSelector("xpath/.//section[@aria-labelledby='overview-heading']//a[normalize-space()='Users']"))!.click()
    await admin.waitForFunction(() => location.pathname === "/admin/users", { timeout: 15_000 })
    await fillField(admin, "Search by e-mail or name", "carla.customer")
    await admin.click(button("Search"))
    await waitForPageText(admin, "1 account")
    await lookAt("users")
    await (await admin.waitForSelector(`xpath/.//tr[contains(., '${CUSTOMER.email}')]//a[normalize-space()='${CUSTOMER.name}']`))!.click()
    await admin.waitForSelector("xpath/.//h2[normalize-space()='Plan and subscription']")

    await fillField(admin, "Monthly request limit", "500")
    await admin.click("button[aria-label='Set limit: Monthly request limit']")
    await (await admin.waitForSelector(inDialog("Set limit")))!.click()
    await waitForPageText(admin, `The monthly limit of ${CUSTOMER.email} is now`)
    await eventually(
      async () => (await api("/api/analyze/usage", { token: (await api("/api/auth/login", { method: "POST", body: { email: CUSTOMER.email, password: CUSTOMER.password } })).body.data!.token as string })).body.data,
      (usage) => expect(usage).toMatchObject({ limit: 500, plan: "enterprise" })
    )
    await lookAt("user")
  })

  it("disables the customer: their open side panel shows them signed out on its next call", async () => {
    await admin.setViewport({ width: 1280, height: 900 })
    await (await admin.waitForSelector(button("Disable account")))!.click()
    await (await admin.waitForSelector(inDialog("Disable account")))!.click()
    await admin.waitForSelector(button("Enable account"), { timeout: 15_000 })

    // The panel's next call: it reads the account when it comes back to the front.
    await panel.evaluate(() => void window.dispatchEvent(new Event("focus")))
    await waitForPageText(panel, "Not signed in", 20_000)
    const refused = await api("/api/auth/login", { method: "POST", body: { email: CUSTOMER.email, password: CUSTOMER.password } })
    expect([refused.status, refused.body.error?.code]).toEqual([403, "ACCOUNT_DISABLED"])
  })

  it("sees the limit and the disabling in the audit log", async () => {
    await admin.goto(`${server.url}/admin/security`, { waitUntil: "networkidle0" })
    await fillField(admin, "Actor", ADMIN.email)
    await admin.click("form[aria-label='Filter the audit log'] button[type='submit']")
    const log = await eventually(
      () => admin.$eval("main", (element) => (element as HTMLElement).innerText),
      (text) => {
        expect(text).toMatch(/disabled/i)
        expect(text).toMatch(/limit/i)
      }
    )
    expect(log).toContain(CUSTOMER.email)
    await lookAt("security")
  })

  it("publishes a post that a visitor then reads on /blog", async () => {
    await admin.setViewport({ width: 1280, height: 900 })
    await admin.goto(`${server.url}/admin/content`)
    await admin.waitForSelector("xpath/.//a[normalize-space()='New post']")
    await waitForPageText(admin, "Published")
    await lookAt("content")
    await (await admin.waitForSelector("xpath/.//a[normalize-space()='New post']"))!.click()
    await fillField(admin, "Title", POST_TITLE)
    await fillField(admin, "Excerpt", "Point the panel at a receipt and read it line by line.")
    const text = (await admin.waitForSelector(fieldByLabel("Text (Markdown)")))!
    await text.type("## Three steps\n\n- Open the panel\n- Pick the receipt\n- Read it\n\n<script>window.hacked = 1</script> stays text. See [the help](https://example.com/help).")
    await fillField(admin, "Category", "guides")
    await fillField(admin, "Status", "published")
    await lookAt("content-editor")
    await admin.setViewport({ width: 1280, height: 900 })
    await admin.click(button("Create post"))
    await waitForPageText(admin, "Created and published.")

    const visitorContext = await browser.createBrowserContext()
    const visitor = await visitorContext.newPage()
    await visitor.setViewport({ width: 375, height: 800 })
    await visitor.goto(`${server.url}/blog`)
    await (await visitor.waitForSelector(`xpath/.//a[normalize-space()='${POST_TITLE}']`))!.click()
    await visitor.waitForSelector(`xpath/.//h1[normalize-space()='${POST_TITLE}']`)
    await visitor.waitForSelector("xpath/.//h2[normalize-space()='Three steps']")
    const article = await visitor.$eval("article", (element) => ({
      text: (element as HTMLElement).innerText,
      scripts: element.querySelectorAll("script").length,
      rel: element.querySelector("a[href='https://example.com/help']")?.getAttribute("rel")
    }))
    expect(article.text).toContain("<script>window.hacked = 1</script> stays text.")
    expect(article).toMatchObject({ scripts: 0, rel: "noopener nofollow" })
    expect(await visitor.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined()
    await screenshot(visitor, "blog-post-from-admin-375")
    expect(await seriousAxeViolations(visitor)).toEqual([])
    await visitorContext.close()
  })

  it("shows today's question on the analytics page", async () => {
    await admin.goto(`${server.url}/admin/analytics`)
    const usage = (await admin.waitForSelector("xpath/.//section[.//h2[normalize-space()='Questions, translations and API calls per day']]"))!
    await admin.waitForSelector("xpath/.//section[.//h2[normalize-space()='Questions, translations and API calls per day']]//*[name()='svg']", { timeout: 20_000 })
    await lookAt("analytics")
    await admin.setViewport({ width: 1280, height: 900 })
    await (await usage.waitForSelector(button("Show as table")))!.click()
    // Newest day first: today's row, its first figure the questions.
    const today = await eventually(
      () => usage.$eval("tbody tr", (row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent)),
      (cells) => expect(cells.length).toBe(3)
    )
    expect(today[0]).toBe("1")
  })

  it("shows the subscriptions on the billing page", async () => {
    await admin.goto(`${server.url}/admin/billing`)
    await waitForPageText(admin, CUSTOMER.email)
    await lookAt("billing")
    expect(adminErrors).toEqual([])
  })
})
