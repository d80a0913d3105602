import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import type { Browser, HTTPRequest, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { completion, sendJson, startStandIn } from "../../server/test-kit"
import { readOutbox } from "../../server/test-kit"
import { longDate } from "~core/format"
import { CARD_DECLINED_MESSAGE, TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS, TEST_MODE_NOTICE } from "~core/billing/billing"
import { seriousAxeViolations } from "./axe"
import { apiOf, registerVerifiedAccount, type Api } from "./api-client"
import { eventually, installExtension, inWorker, launchBrowser, type LoadedExtension, openSidePanel, screenshot, waitForContentScript, waitForPageText, watchPageErrors } from "./browser"
import { fieldByLabel, fillField } from "./forms"
import { solidPng } from "./png"
import { serveFixtures, startServer, type RunningServer } from "./server"
import { relay, trustedLoopbackOrigin } from "./site-relay"

const NAME = "Mary Jackson"
const EMAIL = "mary.jackson@example.com"
const PASSWORD = "Copper-Kettle-37!"
/** More than the Free plan's 10 a month: each one would be refused on Free from the eleventh on. */
const QUESTIONS = 12

describe("a Pro subscription bought on the site in test mode, used in the extension, then cancelled", () => {
  const siteOrigin = trustedLoopbackOrigin().origin
  let folder: string
  let fixtures: Awaited<ReturnType<typeof serveFixtures>>
  let provider: Awaited<ReturnType<typeof startStandIn>>
  let server: RunningServer
  let siteRelay: { close(): Promise<void> }
  let browser: Browser
  let extension: LoadedExtension
  let site: Page
  let siteErrors: string[]
  let api: Api

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const siteToken = async () => (await site.evaluate(() => localStorage.getItem("authToken")))!

  const fill = (label: string, value: string) => fillField(site, label, value)

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "billing-fixtures-"))
    fs.writeFileSync(path.join(folder, "index.html"), '<!doctype html><html lang="en"><title>Harbour</title><h1>Harbour</h1><img src="/harbour.png" alt="Harbour" width="400">')
    fs.writeFileSync(path.join(folder, "harbour.png"), solidPng(800, 600, [40, 110, 180]))
    fixtures = await serveFixtures(folder)
    provider = await startStandIn((request, response) => {
      const body = JSON.parse(request.body) as { messages: { content: string | { type: string; text?: string }[] }[] }
      const last = body.messages.at(-1)?.content
      sendJson(response, 200, completion(`You asked: ${typeof last === "string" ? last : (last?.find((part) => part.type === "text")?.text ?? "")}`))
    })
    server = await startServer({ OPENAI_BASE_URL: provider.url, OPENAI_API_KEY: "sk-test" })
    siteRelay = await relay(new URL(siteOrigin), server.port)
    api = apiOf(server)
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: NAME })

    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    // The site's own service, reached at the trusted origin: the one its pages may hand their session to.
    await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), siteOrigin)
    site = await browser.newPage()
    await site.setViewport({ width: 1280, height: 900 })
    siteErrors = watchPageErrors(site)
  })

  afterAll(async () => {
    await browser?.close()
    await siteRelay?.close()
    await server?.stop()
    await provider?.close()
    await fixtures?.close()
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })

  it("signs in on the site: the extension gets its session, and the dashboard shows the Free plan", async () => {
    await site.goto(`${siteOrigin}/login`, { waitUntil: "networkidle0" })
    await fill("Email", EMAIL)
    await fill("Password", PASSWORD)
    await site.click(button("Sign in"))
    await site.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 })
    const card = await site.waitForSelector("section[aria-label='Subscription']")
    await eventually(
      () => card!.evaluate((element) => (element as HTMLElement).innerText),
      (text) => expect(text).toMatch(/^Subscription\n+Free\n+Status: Active/)
    )
    await eventually(
      () => inWorker(extension.worker, async () => (await chrome.storage.local.get("extensionSession")).extensionSession as string | undefined),
      (stored) => expect(JSON.parse(stored ?? "null")).toMatchObject({ user: { email: EMAIL } })
    )
  })

  it("chooses Pro on the pricing page, is declined with the declined test card, pays with 4242 4242 4242 4242 and lands on a dashboard showing Pro", async () => {
    await site.goto(`${siteOrigin}/pricing`)
    await (await site.waitForSelector("a[aria-label='Upgrade: Pro']"))!.click()
    await site.waitForFunction(() => location.pathname + location.search === "/payment?plan=pro&annual=false", { timeout: 15_000 })
    await waitForPageText(site, TEST_MODE_NOTICE)
    // The e-mail comes from the account.
    expect(await (await site.waitForSelector(fieldByLabel("Email")))!.evaluate((input) => (input as HTMLInputElement).value)).toBe(EMAIL)

    // A number that is no card at all is refused by the form, before any request.
    const billingPosts: string[] = []
    const recordBillingCall = (request: HTTPRequest) => {
      if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/api/billing/")) billingPosts.push(request.url())
    }
    site.on("request", recordBillingCall)
    await fill("Card number", "4242 4242 4242 4241")
    await site.click("form[aria-label='Payment details'] button[type='submit']")
    await waitForPageText(site, "This card number is not valid")
    site.off("request", recordBillingCall)
    expect(billingPosts).toEqual([])

    await fill("Card number", TEST_CARD_DECLINED)
    await fill("Expiry month", "12")
    await fill("Expiry year", String(new Date().getFullYear() + 1))
    await fill("CVC", "123")
    await fill("Cardholder name", NAME)
    await fill("Billing address", "1 Langley Boulevard, Hampton")
    await fill("Country", "US")
    await site.click("form[aria-label='Payment details'] button[type='submit']")
    await waitForPageText(site, CARD_DECLINED_MESSAGE)
    expect((await api("/api/billing/subscription", { token: await siteToken() })).body.data).toMatchObject({ plan: "free" })
    await screenshot(site, "billing-card-declined")
    // The refusal is the one failed request the site's console shows: nothing else went wrong.
    await eventually(
      async () => siteErrors,
      (errors) => expect(errors).toEqual([expect.stringContaining("status of 402 (Payment Required)")])
    )
    siteErrors.splice(0)

    await fill("Card number", TEST_CARD_SUCCEEDS)
    await site.click("form[aria-label='Payment details'] button[type='submit']")
    await waitForPageText(site, "Payment accepted. Taking you to your dashboard…")
    await site.waitForFunction(() => location.pathname + location.search === "/dashboard?subscription=success", { timeout: 15_000 })
    await waitForPageText(site, "Thank you! You are now on the Pro plan.")

    const record = (await api("/api/billing/subscription", { token: await siteToken() })).body.data!
    expect(record).toMatchObject({ plan: "pro", status: "active", interval: "month", cancelAtPeriodEnd: false, mode: "test" })
    const card = (await site.waitForSelector("section[aria-label='Subscription']"))!
    await eventually(
      () => card.evaluate((element) => (element as HTMLElement).innerText),
      (text) => {
        expect(text).toMatch(/^Subscription\n+Pro\n+Status: Active/)
        expect(text).toContain(`Renews on ${longDate(record.currentPeriodEnd as string)}`)
        expect(text).toContain("Unlimited AI requests.")
      }
    )
    // The header's account menu follows the record too.
    await site.click(`button[aria-label='Account menu for ${NAME}']`)
    await eventually(
      async () => (await site.waitForSelector("[data-testid='header-plan']"))!.evaluate((element) => element.textContent),
      (label) => expect(label).toBe("Pro plan")
    )
    await site.keyboard.press("Escape")
    await site.waitForFunction(() => !document.querySelector("[data-testid='header-plan']"))
    await screenshot(site, "billing-dashboard-pro")
    expect(await seriousAxeViolations(site)).toEqual([])

    // The e-mail goes from the server's queue after the payment was answered.
    const started = await eventually(
      async () => (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes(EMAIL) && /Pro/.test(mail.subject)),
      (mails) => expect(mails).toHaveLength(1)
    )
    // Nothing of the card is kept: not in the record, not in an e-mail.
    expect(JSON.stringify(record) + JSON.stringify(started)).not.toContain("4242")
  })

  it(`asks the vision model ${QUESTIONS} times this month through the extension's side panel, none refused`, async () => {
    const page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    await page.goto(`${fixtures.url}/index.html`, { waitUntil: "load" })
    await waitForContentScript(extension.worker, `${fixtures.url}/index.html`)
    const panel = await openSidePanel(browser, extension, page)
    const panelErrors = watchPageErrors(panel)
    await panel.waitForFunction(() => document.querySelector("[data-testid='panel-usage']")?.textContent?.endsWith("Unlimited AI requests"), { timeout: 15_000 })

    await (await panel.waitForSelector(`li[data-url='${fixtures.url}/harbour.png'] input[type='checkbox']`))!.click()
    await panel.click("#panel-tab-chat")
    for (let question = 1; question <= QUESTIONS; question++) {
      await (await panel.waitForSelector("#chat-question:not([disabled])"))!.type(`Question ${question}?`)
      await panel.click(button("Send"))
      await panel.waitForFunction((count: number) => document.querySelectorAll("li[data-role='assistant']").length === count, { timeout: 20_000 }, question)
    }
    expect(await panel.$$("li[data-role='error']")).toHaveLength(0)
    expect(await panel.$eval("li[data-role='assistant']:last-of-type [data-testid='message-text']", (item) => item.textContent)).toBe(`You asked: Question ${QUESTIONS}?`)
    const usage = (await api("/api/analyze/usage", { token: await siteToken() })).body.data
    expect(usage).toMatchObject({ used: QUESTIONS, limit: null })
    await screenshot(panel, "billing-panel-pro-questions")
    expect(panelErrors).toEqual([])
    await panel.close()
    await page.close()
  })

  it("cancels from the dashboard: the end date shows, Pro stays until then, and an e-mail says so", async () => {
    await site.bringToFront()
    await site.goto(`${siteOrigin}/dashboard`)
    await (await site.waitForSelector(button("Cancel subscription")))!.click()
    const dialog = (await site.waitForSelector("[role='alertdialog']"))!
    const end = longDate((await api("/api/billing/subscription", { token: await siteToken() })).body.data!.currentPeriodEnd as string)
    expect(await dialog.evaluate((element) => (element as HTMLElement).innerText)).toContain(`You keep the Pro plan until ${end}`)
    await (await site.waitForSelector(button("Yes, cancel subscription")))!.click()
    await site.waitForFunction(() => !document.querySelector("[role='alertdialog']"), { timeout: 15_000 })
    const card = (await site.waitForSelector("section[aria-label='Subscription']"))!
    await eventually(
      () => card.evaluate((element) => (element as HTMLElement).innerText),
      (text) => {
        expect(text).toMatch(/^Subscription\n+Pro\n/)
        expect(text).toContain(`Ends on ${end}`)
        expect(text).toContain("Resume subscription")
        expect(text).not.toContain("Cancel subscription")
      }
    )
    expect((await api("/api/billing/subscription", { token: await siteToken() })).body.data).toMatchObject({ plan: "pro", cancelAtPeriodEnd: true })
    // Still Pro until the end date: the quota stays unlimited.
    expect((await api("/api/analyze/usage", { token: await siteToken() })).body.data).toMatchObject({ limit: null })
    await eventually(
      async () => (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes(EMAIL) && mail.text.includes(end)),
      (mails) => expect(mails.length).toBeGreaterThanOrEqual(1)
    )
    await screenshot(site, "billing-dashboard-cancelled")
    expect(siteErrors).toEqual([])
  })
})
