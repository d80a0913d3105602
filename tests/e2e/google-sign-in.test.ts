/**
 * Google sign-in end to end in Chromium: the site's Firebase SDK against the Firebase Auth emulator (whose popup
 * stands in for Google's), with Google's iframe script served by a local stand-in, so nothing leaves the machine.
 * The popup blocker stays on, as in a user's browser: the popup must open within the click.
 */
import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

import { EXTENSION_SESSION_KEY } from "~extension/account/extension-session"
import { GOOGLE_ON_SITE_NOTE } from "~site/sign-in/GoogleSignInButton"
import { TERMS_AGREEMENT_LABEL } from "~site/shared/legal/TermsModal"
import { EMULATOR_PROJECT_ID, startFirebaseAuthEmulator } from "../setup/firebase-emulator"
import { readOutbox } from "../outbox"
import { seriousAxeViolations } from "./axe"
import { eventually, installExtension, inWorker, launchBrowser, type LoadedExtension, screenshot, watchPageErrors } from "./browser"
import { completeGooglePopup, serveGoogleScriptStandIn } from "./google-popup-stand-in"
import { startServer, type RunningServer } from "./server"
import { relay, trustedLoopbackOrigin } from "./site-relay"

const GOOGLE_USER = { email: "grace.google@example.com", name: "Grace Hopper" }
const PASSWORD = "Blue-Harbor-42!"

describe("Google sign-in in Chromium", () => {
  // The site at the origin the built extension trusts, so a sign-in there also opens the extension's session.
  const siteOrigin = trustedLoopbackOrigin().origin
  let emulator: Awaited<ReturnType<typeof startFirebaseAuthEmulator>>
  let server: RunningServer
  let siteRelay: { close(): Promise<void> }
  let browser: Browser
  let extension: LoadedExtension

  const button = (text: string) => `xpath/.//button[normalize-space()='${text}']`

  async function api(path: string, token?: string) {
    const response = await fetch(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
    return { status: response.status, body: (await response.json()) as { data?: Record<string, unknown> } }
  }

  async function extensionSession(): Promise<{ user: { email: string }; token: string } | null> {
    const raw = await inWorker(extension.worker, async (key: string) => (await chrome.storage.local.get(key))[key] as string | undefined, EXTENSION_SESSION_KEY)
    return raw ? (JSON.parse(raw) as { user: { email: string }; token: string }) : null
  }

  /** Hovers first, as a pointer does (the button then starts loading Firebase), and clicks. */
  async function clickGoogleButton(page: Page, label: string) {
    // Enabled once the server's Firebase settings have arrived.
    const google = await page.waitForSelector(`xpath/.//button[normalize-space()='${label}' and not(@disabled)]`, { timeout: 15_000 })
    await google!.hover()
    await google!.click()
  }

  async function signInMethods(page: Page): Promise<string> {
    const value = await page.waitForFunction(
      () => {
        const label = [...document.querySelectorAll("*")].find((element) => element.textContent === "Sign-in methods")
        const text = label?.nextElementSibling?.textContent
        return text && text !== "…" ? text : null
      },
      { timeout: 15_000 }
    )
    return (await value.jsonValue()) as string
  }

  async function sitePage(): Promise<Page> {
    const page = await browser.newPage()
    await page.setViewport({ width: 1280, height: 900 })
    return page
  }

  async function logOut(page: Page) {
    await page.click(`button[aria-label='Account menu for ${GOOGLE_USER.name}']`)
    const logout = await page.waitForSelector("xpath/.//*[@role='menuitem' and normalize-space()='Logout']")
    await logout!.click()
    await page.waitForFunction(() => localStorage.getItem("authToken") === null, { timeout: 15_000 })
  }

  beforeAll(async () => {
    // The run's emulator when the API files started one (tests/setup/e2e-global-setup.ts); this file's own otherwise.
    const shared = inject("firebaseAuthEmulatorHost")
    emulator = shared ? { host: shared, ready: Promise.resolve(), stop: async () => {} } : await startFirebaseAuthEmulator()
    await emulator.ready
    server = await startServer({ FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulator.host })
    siteRelay = await relay(new URL(siteOrigin), server.port)
    browser = await launchBrowser({ extension: true, popupBlocking: true })
    extension = await installExtension(browser)
    await inWorker(extension.worker, (origin: string) => chrome.storage.local.set({ apiOrigin: origin }), siteOrigin)
  })

  afterAll(async () => {
    await browser?.close()
    await siteRelay?.close()
    await server?.stop()
    await emulator?.stop()
  })

  it("signs a new Google user up from the login page through the terms, and the dashboard shows Google as the sign-in method", async () => {
    const page = await sitePage()
    const errors = watchPageErrors(page)
    const { dialogs } = await serveGoogleScriptStandIn(page)
    await page.goto(`${siteOrigin}/login`, { waitUntil: "networkidle0" })

    await clickGoogleButton(page, "Continue with Google")
    await completeGooglePopup(browser, page, GOOGLE_USER)
    const dialog = await page.waitForSelector("[role='dialog']", { timeout: 15_000 })
    expect(await dialog!.evaluate((element) => element.textContent)).toContain("Terms of Service and Privacy Policy")
    await screenshot(page, "google-sign-in-terms")
    const agreement = await page.waitForSelector(`xpath/.//label[normalize-space()='${TERMS_AGREEMENT_LABEL}']`)
    await agreement!.click()
    await page.click(button("Accept and continue"))

    await page.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 })
    expect(await signInMethods(page)).toBe("Google")
    await screenshot(page, "google-sign-in-dashboard")
    const token = (await page.evaluate(() => localStorage.getItem("authToken")))!
    const profile = await api("/api/auth/profile", token)
    expect(profile.body.data?.user).toMatchObject({ email: GOOGLE_USER.email, name: GOOGLE_USER.name, provider: "google", emailVerified: true })
    expect((await api("/api/auth/auth-status", token)).body.data).toMatchObject({ hasEmailAuth: false, hasGoogleAuth: true })
    // The site is one the extension trusts: its Google sign-in opened the extension's own session too.
    await eventually(extensionSession, (session) => expect(session?.user.email).toBe(GOOGLE_USER.email))
    // The one failed request is the designed answer for a new Google user: 403 TERMS_NOT_ACCEPTED.
    expect(errors).toEqual(["Failed to load resource: the server responded with a status of 403 (Forbidden)"])
    expect(dialogs).toEqual([])

    await logOut(page)
    await eventually(extensionSession, (session) => expect(session).toBeNull())
    await page.close()
  })

  it("signs the returning Google user in without the terms", async () => {
    const page = await sitePage()
    const errors = watchPageErrors(page)
    const { dialogs } = await serveGoogleScriptStandIn(page)
    await page.goto(`${siteOrigin}/login`, { waitUntil: "networkidle0" })
    await clickGoogleButton(page, "Continue with Google")
    await completeGooglePopup(browser, page, { email: GOOGLE_USER.email })
    await page.waitForFunction(() => location.pathname === "/dashboard", { timeout: 15_000 })
    expect(await page.$("[role='dialog']")).toBeNull()
    expect(await signInMethods(page)).toBe("Google")
    expect(errors).toEqual([])
    expect(dialogs).toEqual([])
    await logOut(page)
    await page.close()
  })

  it("signs the extension in with Google from its popup's Sign in: the site's tab says so and closes after 2 s", async () => {
    expect(await extensionSession()).toBeNull()
    const popup = await browser.newPage()
    await popup.goto(`chrome-extension://${extension.id}/popup.html`)
    await popup.waitForSelector(button("Sign in"), { timeout: 10_000 })
    await popup.click(button("Sign in"))
    const loginTarget = await browser.waitForTarget((target) => target.url() === `${siteOrigin}/login?source=extension`, { timeout: 10_000 })
    const login = (await loginTarget.page())!
    const errors = watchPageErrors(login)
    const { dialogs } = await serveGoogleScriptStandIn(login)
    const closed = new Promise<void>((resolve) => login.once("close", () => resolve()))

    await clickGoogleButton(login, "Continue with Google")
    await completeGooglePopup(browser, login, { email: GOOGLE_USER.email })
    await login.waitForFunction(() => document.body.innerText.includes("This tab closes by itself in a moment."), { timeout: 15_000 })
    await screenshot(login, "google-sign-in-from-extension")
    const session = await eventually(extensionSession, (stored) => expect(stored?.user.email).toBe(GOOGLE_USER.email))
    expect((await api("/api/auth/profile", session!.token)).status).toBe(200)
    await closed
    expect(errors).toEqual([])
    expect(dialogs).toEqual([])
    await popup.close()
  })

  it("in the site rendered in the extension's tab page, which carries no Firebase, continues on the web site's sign-in", async () => {
    const tab = await sitePage()
    const errors = watchPageErrors(tab)
    await tab.goto(`chrome-extension://${extension.id}/tabs/site.html#/login`)
    await tab.waitForFunction((note: string) => document.body.innerText.includes(note), { timeout: 15_000 }, GOOGLE_ON_SITE_NOTE)
    await clickGoogleButton(tab, "Continue with Google")
    const login = await browser.waitForTarget((target) => target.url() === `${siteOrigin}/login?source=extension`, { timeout: 10_000 })
    await (await login.page())?.close()
    expect(errors).toEqual([])
    await tab.close()
  })

  it("adds a password to the Google account on the dashboard, removes Google with it, and e-mails each change", async () => {
    const page = await sitePage()
    const errors = watchPageErrors(page)
    await serveGoogleScriptStandIn(page)
    await page.goto(`${siteOrigin}/login`, { waitUntil: "networkidle0" })
    // The popup's sign-in of the test before left this browser signed in, a minute ago at most: the login page says so.
    if (!(await page.evaluate(() => localStorage.getItem("authToken")))) {
      await clickGoogleButton(page, "Continue with Google")
      await completeGooglePopup(browser, page, { email: GOOGLE_USER.email })
    }
    await page.goto(`${siteOrigin}/dashboard`)
    expect(await signInMethods(page)).toBe("Google")

    // Signed in just now: that sign-in proves the person, so a password may be added.
    for (const [label, value] of [["Password", PASSWORD], ["Confirm password", PASSWORD]] as const) {
      const input = await page.waitForSelector(`xpath/.//input[@id=//label[normalize-space()='${label}']/@for]`)
      await input!.type(value)
    }
    await page.click(button("Add Email Authentication"))
    await page.waitForFunction(() => [...document.querySelectorAll("dt")].some((term) => term.textContent === "Sign-in methods" && term.nextElementSibling?.textContent === "Email + Google"), { timeout: 15_000 })
    await page.waitForSelector(button("Remove Google sign-in"))
    // The toast fades in and out: checked once it has gone.
    await page.waitForFunction(() => !document.querySelector("[data-sonner-toast]"), { timeout: 15_000 })
    await screenshot(page, "sign-in-methods-both-1280")
    expect(await seriousAxeViolations(page)).toEqual([])

    await page.setViewport({ width: 375, height: 800 })
    await page.click(button("Remove Google sign-in"))
    const dialog = await page.waitForSelector("[role='alertdialog']")
    const password = await dialog!.waitForSelector("xpath/.//input[@type='password']")
    await password!.type(PASSWORD)
    await screenshot(page, "sign-in-methods-remove-375")
    expect(await seriousAxeViolations(page)).toEqual([])
    await (await dialog!.waitForSelector(`xpath/.//button[normalize-space()='Remove Google sign-in' and not(@disabled)]`))!.click()
    await page.waitForFunction(() => !document.querySelector("[role='alertdialog']") && [...document.querySelectorAll("dt")].some((term) => term.textContent === "Sign-in methods" && term.nextElementSibling?.textContent === "Email"), { timeout: 15_000 })

    // The account now signs in with its password only, and its owner was told of both changes.
    const signIn = await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: GOOGLE_USER.email, password: PASSWORD }) })
    expect(signIn.status).toBe(200)
    await eventually(
      async () => (await readOutbox(server.dataDir)).filter((mail) => mail.to.includes(GOOGLE_USER.email)).map((mail) => mail.subject),
      (subjects) => expect(subjects).toEqual(expect.arrayContaining(["A password was added to your Image Query AI account", "Google sign-in was removed from your Image Query AI account"]))
    )
    expect(errors).toEqual([])
    await page.close()
  })
})
