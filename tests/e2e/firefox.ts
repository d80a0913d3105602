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
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import puppeteer, { type Browser, type Page } from "puppeteer-core"

import { eventually } from "./browser"

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr"
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

/** The gecko id of a Firefox build, from its manifest. */
function geckoId(extensionDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, "manifest.json"), "utf8")) as { browser_specific_settings?: { gecko?: { id?: string } } }
  const id = manifest.browser_specific_settings?.gecko?.id
  if (!id) throw new Error(`The manifest in ${extensionDir} names no browser_specific_settings.gecko.id`)
  return id
}

/** Headless Firefox ESR with the extension of `extensionDir` installed; its pages are under FIREFOX_EXTENSION_ORIGIN. */
export async function launchFirefoxWithExtension(extensionDir = FIREFOX_EXTENSION_DIR): Promise<Browser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-firefox-"))
  const id = geckoId(extensionDir)
  const browser = await puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir,
    args: ["--remote-allow-system-access", "--width=1280", "--height=900"],
    extraPrefsFirefox: {
      "extensions.webextensions.uuids": JSON.stringify({ [id]: EXTENSION_UUID }),
      // The closed network: no update checks, telemetry or remote settings.
      "app.update.enabled": false,
      "datareporting.policy.dataSubmissionEnabled": false,
      "extensions.getAddons.cache.enabled": false
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
