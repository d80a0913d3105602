import http from "node:http"
import type net from "node:net"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { EXTENSION_ID } from "~core/extension-id"
import { apiOf, registerVerifiedAccount, type Api } from "./api-client"
import { eventually, installExtension, inWorker, launchBrowser, type LoadedExtension, screenshot, watchPageErrors } from "./browser"
import { serveHostilePage, startServer, type RunningServer } from "./server"
import { relay, trustedLoopbackOrigin } from "./site-relay"

const NAME = "Ada Lovelace"
const EMAIL = "ada.extension@example.com"
const PASSWORD = "Blue-Harbor-42!"
const SESSION_KEY = "extensionSession"

interface StoredSession {
  user: { name: string; email: string }
  token: string
  refreshToken: string
  expiresAt: number
}

describe("the extension's own session, opened from the site", () => {
  const trustedOrigin = trustedLoopbackOrigin()
  const siteOrigin = trustedOrigin.origin
  let server: RunningServer
  let api: Api
  let siteRelay: { close(): Promise<void> }
  let hostile: Awaited<ReturnType<typeof serveHostilePage>>
  let browser: Browser
  let extension: LoadedExtension
  let site: Page
  const workerErrors: string[] = []

  const extensionUrl = (file: string) => `chrome-extension://${extension.id}/${file}`
  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`
  const inputFor = (label: string) => `xpath/.//input[@id=//label[normalize-space()='${label}']/@for]`

  async function storedSession(): Promise<StoredSession | null> {
    const raw = await inWorker(extension.worker, async (key: string) => (await chrome.storage.local.get(key))[key] as string | undefined, SESSION_KEY)
    return raw ? (JSON.parse(raw) as StoredSession) : null
  }

  async function waitForStoredSession(): Promise<StoredSession> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const session = await storedSession()
      if (session) return session
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error("The extension stored no session")
  }

  async function signInOnSite(page: Page) {
    await page.goto(`${siteOrigin}/login`, { waitUntil: "networkidle0" })
    for (const [label, value] of [
      ["Email", EMAIL],
      ["Password", PASSWORD]
    ] as const) {
      const input = await page.waitForSelector(inputFor(label))
      await input!.type(value)
    }
    await page.click(button("Sign in"))
    await page.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 })
  }

  const siteToken = (page: Page) => page.evaluate(() => localStorage.getItem("authToken"))

  async function waitForSiteSignedOut(page: Page) {
    await page.waitForFunction(() => localStorage.getItem("authToken") === null, { timeout: 15_000 })
  }

  async function signOutInPopup() {
    const popup = await browser.newPage()
    await popup.goto(extensionUrl("popup.html"))
    await popup.waitForSelector(button("Sign out"), { timeout: 10_000 })
    await popup.click(button("Sign out"))
    await popup.waitForFunction(() => document.body.innerText.includes("Not signed in"), { timeout: 10_000 })
    return popup
  }


  beforeAll(async () => {
    server = await startServer()
    api = apiOf(server)
    siteRelay = await relay(trustedOrigin, server.port)
    hostile = await serveHostilePage()
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
    extension.worker.on("console", (message) => {
      if (message.type() === "error") workerErrors.push(message.text())
    })
    // The site's own service (reached at the trusted origin through the relay): the one its pages may hand their session to.
    await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), siteOrigin)
    // Records what the site sends, next to the extension's own listener (which answers).
    await inWorker(extension.worker, async () => {
      const seen: unknown[] = []
      ;(globalThis as unknown as { siteMessages: unknown[] }).siteMessages = seen
      chrome.runtime.onMessageExternal.addListener((message: unknown) => {
        seen.push(message)
      })
    })

    // A verified account, made through the API.
    await registerVerifiedAccount(server, { email: EMAIL, password: PASSWORD, name: NAME })
  })

  afterAll(async () => {
    await browser?.close()
    await hostile?.close()
    await siteRelay?.close()
    await server?.stop()
  })

  it("uses the stable extension id of the manifest key", () => {
    expect(extension.id).toBe(EXTENSION_ID)
  })

  it("opens a session of its own when the user signs in on the site, and never stores the site's token", async () => {
    site = await browser.newPage()
    const errors = watchPageErrors(site)
    await signInOnSite(site)
    expect(await site.evaluate(() => typeof (globalThis as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime?.sendMessage)).toBe("function")

    const session = await waitForStoredSession()
    expect(session.user).toMatchObject({ name: NAME, email: EMAIL })
    expect(session.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000)

    const siteTokens = await site.evaluate(() => [localStorage.getItem("authToken"), localStorage.getItem("refreshToken")])
    expect(siteTokens[0]).toBeTruthy()
    expect(session.token).not.toBe(siteTokens[0])
    expect(session.refreshToken).not.toBe(siteTokens[1])
    const everything = await inWorker(extension.worker, async () => JSON.stringify([await chrome.storage.local.get(null), await chrome.storage.session.get(null)]))
    for (const token of siteTokens) expect(everything).not.toContain(token)

    // The site's sign-in message carried its access token and never its refresh token.
    const received = await inWorker(extension.worker, async () => (globalThis as unknown as { siteMessages: { type?: string; payload?: { tokens?: Record<string, unknown> } }[] }).siteMessages)
    const signIn = received.find((message) => message.type === "WEBSITE_AUTH_LOGIN")
    expect(signIn?.payload?.tokens).toMatchObject({ authToken: siteTokens[0], refreshToken: null })
    expect(siteTokens[1]).toBeTruthy()
    expect(JSON.stringify(received)).not.toContain(siteTokens[1])

    // The extension's token is a live session of its own.
    expect((await api("/api/auth/profile", { token: session.token })).status).toBe(200)
    expect(errors).toEqual([])
  })

  it("shows the signed-in user, the plan and the month's usage in the popup", async () => {
    const popup = await browser.newPage()
    const errors = watchPageErrors(popup)
    await popup.goto(extensionUrl("popup.html"))
    await popup.waitForFunction(() => document.body.innerText.includes("Service online · version 1.0.0"))
    await popup.waitForFunction((name: string) => document.body.innerText.includes(name), { timeout: 10_000 }, NAME)
    await popup.waitForFunction(() => document.body.innerText.includes("0 of 10 AI requests used this month"), { timeout: 10_000 })
    const text = await popup.evaluate(() => document.body.innerText)
    expect(text).toContain(EMAIL)
    expect(await popup.$eval("[data-testid='account-plan']", (element) => element.textContent)).toBe("Free")
    expect(await popup.$(button("Sign out"))).not.toBeNull()
    await screenshot(popup, "extension-popup-signed-in")
    await popup.click(button("Dashboard"))
    // A new tab: the site page is on the dashboard too.
    const dashboard = await browser.waitForTarget((target) => target.url() === `${siteOrigin}/dashboard` && target !== site.target(), { timeout: 10_000 })
    await (await dashboard.page())?.close()
    expect(errors).toEqual([])
    await popup.close()
  })

  it("answers the site itself only {success}: no token comes back, and bad input is refused", async () => {
    const answers = await site.evaluate(async (id: string) => {
      const runtime = (globalThis as unknown as { chrome: { runtime: { sendMessage: (id: string, message: unknown) => Promise<unknown> } } }).chrome.runtime
      return Promise.all([
        runtime.sendMessage(id, { type: "WEBSITE_AUTH_LOGOUT" }),
        runtime.sendMessage(id, { type: "WEBSITE_AUTH_SYNC", timestamp: "now" }),
        runtime.sendMessage(id, { type: "EXTENSION_AUTH_STATUS_REQUEST", timestamp: Date.now() })
      ])
    }, EXTENSION_ID)
    expect(answers).toEqual([
      { success: false, error: "Invalid message: the timestamp must be a number" },
      { success: false, error: "Invalid message: the timestamp must be a number" },
      { success: false, error: "Invalid message type: it must be a string starting with WEBSITE_" }
    ])
    expect(await storedSession()).not.toBeNull()
  })

  it("gives a hostile page of another origin no way to the extension and no token", async () => {
    const session = (await storedSession())!
    const siteToken = await site.evaluate(() => localStorage.getItem("authToken"))
    const page = await browser.newPage()
    await page.goto(`${hostile.url}/`, { waitUntil: "load" })
    const probe = await page.evaluate(async (id: string) => {
      const chromeObject = (globalThis as { chrome?: { runtime?: { sendMessage?: (id: string, message: unknown) => Promise<unknown> } } }).chrome
      let sendOutcome = "no chrome.runtime.sendMessage"
      if (typeof chromeObject?.runtime?.sendMessage === "function") {
        try {
          sendOutcome = JSON.stringify(await chromeObject.runtime.sendMessage(id, { type: "WEBSITE_AUTH_SYNC", timestamp: Date.now() }))
        } catch (error) {
          sendOutcome = `failed: ${String(error)}`
        }
      }
      // Everything a page script can read of its own: window's properties, storage, cookies and the document.
      const windowValues: string[] = []
      for (const key of Object.getOwnPropertyNames(window)) {
        try {
          const value = (window as unknown as Record<string, unknown>)[key]
          if (typeof value === "string") windowValues.push(value)
          else if (value && typeof value === "object" && key !== "window" && key !== "self" && key !== "top" && key !== "parent" && key !== "frames" && key !== "globalThis") {
            try {
              windowValues.push(JSON.stringify(value))
            } catch {
              // Not serialisable: not data a script could lift a token from as is.
            }
          }
        } catch {
          // Cross-origin or throwing getter.
        }
      }
      const storage = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })
      return { runtime: typeof chromeObject?.runtime, sendOutcome, readable: [windowValues.join("\n"), storage, document.cookie, document.documentElement.outerHTML].join("\n") }
    }, EXTENSION_ID)
    expect(probe.runtime).toBe("undefined")
    expect(probe.sendOutcome).toBe("no chrome.runtime.sendMessage")
    for (const token of [session.token, session.refreshToken, siteToken!]) expect(probe.readable).not.toContain(token)
    // And the session is still the same one.
    expect((await storedSession())?.token).toBe(session.token)
    await page.close()
  })

  it("gives a hostile page no way to sign the site out: the site listens to no window message", async () => {
    const before = await siteToken(site)
    const page = await browser.newPage()
    await page.goto(`${hostile.url}/`, { waitUntil: "load" })
    await page.evaluate(async (target: string) => {
      const opened = window.open(`${target}/dashboard`)
      for (let attempt = 0; attempt < 20; attempt++) {
        for (const type of ["EXTENSION_LOGOUT_REQUEST", "WEBSITE_AUTH_LOGOUT"]) opened?.postMessage({ type, timestamp: Date.now() }, "*")
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }, siteOrigin)
    const opened = await browser.waitForTarget((target) => target.opener() === page.target())
    const openedPage = (await opened.page())!
    try {
      // The new window starts on about:blank of the opener's origin: read the site's storage once the site is loaded.
      await openedPage.waitForFunction((origin: string) => location.origin === origin && document.readyState === "complete", { timeout: 15_000 }, siteOrigin)
      // Still signed in (the token may have been refreshed meanwhile, which is not a logout).
      const now = await siteToken(openedPage)
      expect(before).toBeTruthy()
      expect(now).toBeTruthy()
      expect((await api("/api/auth/profile", { token: now! })).status).toBe(200)
      expect(await storedSession()).not.toBeNull()
    } finally {
      await openedPage.close()
      await page.close()
    }
  })

  it("signs out from the popup: the extension's session ends and the open site page signs out too", async () => {
    const session = (await storedSession())!
    const siteTokenBefore = await siteToken(site)
    const popup = await signOutInPopup()
    await screenshot(popup, "extension-popup-signed-out")
    await popup.click(button("Sign in"))
    const login = await browser.waitForTarget((target) => target.url() === `${siteOrigin}/login?source=extension`, { timeout: 10_000 })
    await (await login.page())?.close()
    // The worker ends the session; the popup's "Not signed in" is no promise that its storage write has landed.
    await eventually(storedSession, (stored) => expect(stored).toBeNull())
    for (let attempt = 0; attempt < 50; attempt++) {
      if ((await api("/api/auth/profile", { token: session.token })).status === 401) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect((await api("/api/auth/profile", { token: session.token })).status).toBe(401)
    // EXTENSION_LOGOUT_REQUEST reached the open page over its port: the site's session ended too.
    await waitForSiteSignedOut(site)
    for (let attempt = 0; attempt < 50 && (await api("/api/auth/profile", { token: siteTokenBefore! })).status !== 401; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect((await api("/api/auth/profile", { token: siteTokenBefore! })).status).toBe(401)
    await popup.close()
  })

  it("signs out the site's next page when no page of the site was open at the extension's sign-out", async () => {
    await signInOnSite(site)
    await waitForStoredSession()
    const siteTokenBefore = await siteToken(site)
    await site.close()
    await (await signOutInPopup()).close()
    site = await browser.newPage()
    await site.goto(`${siteOrigin}/dashboard`, { waitUntil: "networkidle0" })
    await waitForSiteSignedOut(site)
    // The page's sync (sent before the logout request arrived) did not sign the extension back in.
    expect(await storedSession()).toBeNull()
    expect((await api("/api/auth/profile", { token: siteTokenBefore! })).status).toBe(401)
  })

  it("ends its session when the site logs out", async () => {
    // A new sign-in on the site opens a new extension session; then the site's logout ends it.
    await signInOnSite(site)
    const session = await waitForStoredSession()
    await site.click(`button[aria-label='Account menu for ${NAME}']`)
    // The menu's items are rendered once it has opened.
    const logout = await site.waitForSelector("xpath/.//*[@role='menuitem' and normalize-space()='Logout']")
    await logout!.click()
    for (let attempt = 0; attempt < 100 && (await storedSession()); attempt++) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await storedSession()).toBeNull()
    // The extension hears of the logout from the page, which may be before the server has finished the logout request.
    await eventually(
      async () => (await api("/api/auth/profile", { token: session.token })).status,
      (status) => expect(status).toBe(401)
    )
  })

  it("opens its session from the site rendered in its own tab page too", async () => {
    expect(await storedSession()).toBeNull()
    const tab = await browser.newPage()
    const errors = watchPageErrors(tab)
    await tab.goto(extensionUrl("tabs/site.html#/login"), { waitUntil: "networkidle0" })
    for (const [label, value] of [
      ["Email", EMAIL],
      ["Password", PASSWORD]
    ] as const) {
      const input = await tab.waitForSelector(inputFor(label))
      await input!.type(value)
    }
    await tab.click(button("Sign in"))
    await tab.waitForFunction(() => location.hash === "#/dashboard", { timeout: 15_000 })
    const session = await waitForStoredSession()
    expect(session.user.email).toBe(EMAIL)
    expect(session.token).not.toBe(await tab.evaluate(() => localStorage.getItem("authToken")))
    expect(errors).toEqual([])
    await tab.close()
  })

  it("hands the site's session to no other service: pointed elsewhere in Settings, a sign-in on the site sends that address nothing", async () => {
    const requests: string[] = []
    const other = http.createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`)
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve))
    const otherUrl = `http://127.0.0.1:${(other.address() as net.AddressInfo).port}`
    try {
      await inWorker(extension.worker, async (origin: string) => {
        await chrome.storage.local.remove("extensionSession")
        await chrome.storage.local.set({ apiOrigin: origin })
      }, otherUrl)
      const seenBefore = await inWorker(extension.worker, async () => (globalThis as unknown as { siteMessages: unknown[] }).siteMessages.length)
      await signInOnSite(site)
      // The site's sign-in message reached the extension, which refused it: nothing went to the other address.
      await eventually(
        () => inWorker(extension.worker, async () => (globalThis as unknown as { siteMessages: { type?: string }[] }).siteMessages.map((message) => message.type)),
        (types) => expect(types.slice(seenBefore)).toContain("WEBSITE_AUTH_LOGIN")
      )
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(requests).toEqual([])
      expect(await storedSession()).toBeNull()

      // Pointed back at the site's own service, the site's next page load signs the extension in again.
      await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), siteOrigin)
      await site.reload({ waitUntil: "networkidle0" })
      expect((await waitForStoredSession()).user.email).toBe(EMAIL)
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()))
    }
  })

  it("logged no error in its service worker", () => {
    expect(workerErrors).toEqual([])
  })
})
