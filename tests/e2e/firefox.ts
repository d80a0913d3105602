/**
 * Firefox ESR for the end-to-end tests, driven by puppeteer-core over WebDriver BiDi, with the Firefox build of the
 * extension installed as a temporary add-on (browser.installExtension: unsigned builds may be installed that way).
 *
 * Two things differ from Chromium:
 * - Firefox gives each profile a random internal UUID for an add-on's moz-extension:// pages; the
 *   extensions.webextensions.uuids preference fixes it by the add-on's gecko id, so the tests know the pages' URLs;
 * - since Firefox 153, WebDriver may navigate to moz-extension:// only when started with --remote-allow-system-access,
 *   and its navigation events for those pages never arrive: openExtensionPage starts the navigation and waits for the
 *   page itself.
 *
 * Debian has shipped both ESR 140 and ESR 153 (140.12 from bookworm, 153.8 from bookworm-security: which one a machine
 * gets depends on its package lists), and the tests must pass on either. Two puppeteer calls do not:
 * - page.setViewport sends emulation.setScreenOrientationOverride, a command ESR 140's WebDriver BiDi does not know.
 *   Windows are sized through the browser instead: the first one at launch (--width/--height), the panel's window by
 *   the extension itself (chrome.windows.create), which the tests then check rather than override;
 * - page.waitForFunction builds its predicate with Function() in the page's own realm, which a page's CSP refuses
 *   (the site's, rightly: no 'unsafe-eval'). waitInPage polls page.evaluate instead: WebDriver BiDi's
 *   script.callFunction runs the function as the browser's own code, outside the page's CSP. A lint rule
 *   (eslint.config.js) keeps both calls out of the Firefox tests.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import puppeteer, { type Browser, type Page } from "puppeteer-core"

import { expect } from "vitest"

import { SITE_BRIDGE_GLOBAL } from "~core/extension-message-types"

import { eventually } from "./browser"
import { fieldByLabel } from "./forms"

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr"
/**
 * The oldest Firefox the extension supports (its manifest's strict_min_version), when another than FIREFOX_PATH:
 * .ci/run unpacks the oldest ESR Debian still offers there, so that the tests pass on the Firefox a newer machine
 * installs and on the one an older one does (the two have differed: see the top of this module).
 */
const FIREFOX_OLDEST_PATH = process.env.FIREFOX_OLDEST_PATH
export const FIREFOX_EXTENSION_DIR = path.resolve("build/firefox-mv3-prod")
/** The add-on's internal UUID in the test profile (any fixed UUID would do). */
const EXTENSION_UUID = "3c0b1f5e-6a2b-4c1d-9e8f-0a1b2c3d4e5f"
export const FIREFOX_EXTENSION_ORIGIN = `moz-extension://${EXTENSION_UUID}`

/** Why the Firefox tests cannot run here, or null when they can. */
export function firefoxUnavailableReason(extensionDir = FIREFOX_EXTENSION_DIR): string | null {
  if (!fs.existsSync(FIREFOX_PATH)) return `Firefox ESR is not installed at ${FIREFOX_PATH} (apt-get install firefox-esr, or set FIREFOX_PATH)`
  if (!fs.existsSync(path.join(extensionDir, "manifest.json"))) return `no Firefox build in ${extensionDir}: run npm run build:firefox`
  return null
}

/** A Firefox the tests run on: its executable and the version it names itself ("Mozilla Firefox 140.12.0esr"). */
export interface FirefoxUnderTest {
  path: string
  version: string
}

/** FIREFOX_PATH, and FIREFOX_OLDEST_PATH when set (an error when it names no Firefox: a run must not pass unseen). */
export function firefoxesUnderTest(): FirefoxUnderTest[] {
  const version = (executable: string) => execFileSync(executable, ["--version"], { encoding: "utf8", timeout: 30_000 }).trim()
  if (!fs.existsSync(FIREFOX_PATH)) return [{ path: FIREFOX_PATH, version: "Firefox ESR" }]
  const firefoxes = [{ path: FIREFOX_PATH, version: version(FIREFOX_PATH) }]
  if (FIREFOX_OLDEST_PATH) {
    if (!fs.existsSync(FIREFOX_OLDEST_PATH)) throw new Error(`FIREFOX_OLDEST_PATH names no Firefox: ${FIREFOX_OLDEST_PATH}`)
    const oldest = { path: FIREFOX_OLDEST_PATH, version: version(FIREFOX_OLDEST_PATH) }
    if (oldest.version !== firefoxes[0]!.version) firefoxes.push(oldest)
  }
  return firefoxes
}

/** The gecko id of a Firefox build, from its manifest. */
function geckoId(extensionDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, "manifest.json"), "utf8")) as { browser_specific_settings?: { gecko?: { id?: string } } }
  const id = manifest.browser_specific_settings?.gecko?.id
  if (!id) throw new Error(`The manifest in ${extensionDir} names no browser_specific_settings.gecko.id`)
  return id
}

/**
 * Headless Firefox ESR with the extension of `extensionDir` installed; its pages are under FIREFOX_EXTENSION_ORIGIN.
 * `prefs`: Firefox preferences added to the usual ones (a test's host names, say).
 */
export async function launchFirefoxWithExtension(extensionDir = FIREFOX_EXTENSION_DIR, executablePath = FIREFOX_PATH, prefs: Record<string, unknown> = {}): Promise<Browser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-firefox-"))
  const id = geckoId(extensionDir)
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath,
    headless: true,
    userDataDir,
    args: ["--remote-allow-system-access", "--width=1280", "--height=900"],
    extraPrefsFirefox: {
      "extensions.webextensions.uuids": JSON.stringify({ [id]: EXTENSION_UUID }),
      // The closed network: no update checks, telemetry or remote settings.
      "app.update.enabled": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "extensions.getAddons.cache.enabled": false,
      ...prefs
    }
  })
  browser.once("disconnected", () => {
    fs.promises.rm(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch(() => {})
  })
  const installed = await browser.installExtension(extensionDir)
  if (installed !== id) throw new Error(`Firefox installed the add-on as ${installed}, not ${id}`)
  return browser
}

/** Opens one of the extension's pages (popup.html, sidepanel.html…) in `page` and waits until it has loaded. */
export async function openExtensionPage(page: Page, file: string): Promise<void> {
  const url = `${FIREFOX_EXTENSION_ORIGIN}/${file}`
  // The navigation happens, but WebDriver never reports its end for an extension page: wait for the page instead.
  void page.goto(url, { timeout: 60_000 }).catch(() => undefined)
  await eventually(
    () => page.evaluate(() => ({ href: location.href, ready: document.readyState })),
    ({ href, ready }) => {
      if (href !== url || ready !== "complete") throw new Error(`${url} has not loaded (${href}, ${ready})`)
    },
    30_000
  )
}

/** Runs `fn` in an extension page (where `browser.*` and `chrome.*` are the extension's APIs) and answers its result. */
export function inExtensionPage<T>(page: Page, fn: (...args: never[]) => Promise<T>, ...args: unknown[]): Promise<T> {
  return page.evaluate(fn as never, ...(args as never[])) as Promise<T>
}

/**
 * Waits until `fn`, run in `page`, answers true (what page.waitForFunction does, without Function(): see the top of
 * this module). A page that is navigating away answers nothing for a moment, which counts as not yet.
 */
export async function waitInPage<A extends unknown[]>(page: Page, fn: (...args: A) => boolean, args: A, timeoutMs = 10_000): Promise<void> {
  await eventually(
    () => page.evaluate(fn as never, ...(args as unknown as never[])).catch(() => false) as Promise<boolean>,
    (answer) => expect(answer, `${fn.toString()} never answered true`).toBe(true),
    timeoutMs
  )
}

/**
 * Signs in on the site at `siteOrigin` (the origin the build trusts, relayed to the server) with its own form, in a new
 * page: the site bridge hands the sign-in to the extension, which opens its own session. Answers the site's page, on
 * the dashboard, for the caller to check and close.
 */
export async function signInOnSite(browser: Browser, siteOrigin: string, account: { email: string; password: string }): Promise<Page> {
  const site = await browser.newPage()
  await site.goto(`${siteOrigin}/login`, { waitUntil: "load" })
  await waitInPage(site, (name: string) => typeof (window as unknown as Record<string, unknown>)[name] === "object", [SITE_BRIDGE_GLOBAL])
  for (const [label, value] of [["Email", account.email], ["Password", account.password]] as const) {
    await (await site.waitForSelector(fieldByLabel(label)))!.type(value)
  }
  await site.click("xpath/.//button[normalize-space()='Sign in']")
  await waitInPage(site, () => location.pathname === "/dashboard", [], 20_000)
  return site
}

/** The extension page at `prefix` among the browser's pages (WebDriver reports extension pages as about:blank). */
export async function findExtensionPage(browser: Browser, prefix: string): Promise<Page> {
  return eventually(
    async () => {
      for (const candidate of await browser.pages()) {
        const href = await candidate.evaluate(() => location.href).catch(() => "")
        if (href.startsWith(prefix)) return candidate
      }
      return null
    },
    (found) => expect(found).not.toBeNull(),
    20_000
  ) as Promise<Page>
}
