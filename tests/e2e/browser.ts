import fs from "node:fs"
import os from "node:os"
import path from "node:path"

import puppeteer, { type Browser, type Page, type Target, type Viewport, type WebWorker } from "puppeteer-core"

import { PAGE_INDEX_FILE } from "~extension/messaging/messages"

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const EXTENSION_DIR = path.resolve(process.env.IQA_BENCH_EXTENSION_DIR ?? "build/chrome-mv3-prod")
export const SCREENSHOT_DIR = path.resolve("tests/.artifacts")

/**
 * Headless Chromium as this machine needs it: no sandbox as root, and no background networking,
 * whose connections the closed network refuses. `popupBlocking` keeps Chromium's popup blocker on (Puppeteer
 * turns it off), for flows that must open their popup within the user's click as in a user's browser.
 */
/** `args`: Chromium flags added to the usual ones (a bench of saved pages makes every other host unreachable at once). */
export async function launchBrowser({ extension = false, popupBlocking = false, args = [] as string[] } = {}): Promise<Browser> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-chromium-"))
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    pipe: true,
    enableExtensions: extension,
    ...(popupBlocking ? { ignoreDefaultArgs: ["--disable-popup-blocking"] } : {}),
    userDataDir,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
      "--window-size=1280,900",
      ...args
    ]
  })
  browser.once("disconnected", () => {
    fs.promises.rm(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }).catch(() => {})
  })
  return browser
}

export interface LoadedExtension {
  id: string
  worker: WebWorker
}

/** Installs the built extension (or the one unpacked in `dir`) unpacked and waits for its service worker. */
export async function installExtension(browser: Browser, dir = EXTENSION_DIR): Promise<LoadedExtension> {
  if (!fs.existsSync(path.join(dir, "manifest.json"))) {
    throw new Error(`No built extension in ${dir}: run npm run build:extension first`)
  }
  const id = await browser.installExtension(dir)
  const target = await browser.waitForTarget(
    (candidate) => candidate.type() === "service_worker" && candidate.url().startsWith(`chrome-extension://${id}/`),
    { timeout: 20_000 }
  )
  const worker = await target.worker()
  if (!worker) throw new Error("The extension's service worker target has no worker")
  // Attaching can be quicker than the start of the worker's script, before which it has no extension APIs.
  await eventually(
    () => worker.evaluate(() => typeof chrome !== "undefined" && chrome.runtime?.id !== undefined),
    (ready) => {
      if (!ready) throw new Error("The extension's service worker has no chrome.runtime yet")
    }
  )
  return { id, worker }
}

/**
 * The real side panel for `page`'s tab, opened as a user does: the popup's button (a click is the gesture Chrome
 * requires), at `viewport`'s size when given. Retried, since the first click can land before the popup's script has
 * its listeners. The panel is returned once its header shows, and found again if its target closed meanwhile.
 */
export async function openSidePanel(browser: Browser, extension: LoadedExtension, page: Page, viewport?: Viewport): Promise<Page> {
  const popup = await browser.newPage()
  await popup.goto(`chrome-extension://${extension.id}/popup.html`)
  const isPanel = (candidate: Target) => candidate.url() === `chrome-extension://${extension.id}/sidepanel.html`
  for (let attempt = 0; attempt < 3 && !browser.targets().some(isPanel); attempt++) {
    await (await popup.waitForSelector("xpath/.//button[normalize-space()='Open side panel']"))!.click()
    await browser.waitForTarget(isPanel, { timeout: 5_000 }).catch(() => null)
  }
  await page.bringToFront()
  await popup.close()
  const closed = new Set<Target>()
  for (let attempt = 1; ; attempt++) {
    const target = await browser.waitForTarget((candidate) => isPanel(candidate) && !closed.has(candidate), { timeout: 5_000 })
    const panel = (await target.asPage()) as Page
    try {
      if (viewport) await panel.setViewport(viewport)
      // Loaded, with its header shown: a side panel reloaded before it has loaded can close (reloadSidePanel).
      await panel.waitForSelector("header", { timeout: 15_000 })
      return panel
    } catch (error) {
      // puppeteer does not export TargetCloseError, the class of a command to a closed target; its name says it.
      if ((error as Error).name !== "TargetCloseError" || attempt === 3) throw error
      closed.add(target)
    }
  }
}

/**
 * Reloads the real side panel of `page`'s tab until it shows its header, `prepare` (a stand-in to give its next
 * document, offline mode) done first. Headless Chromium sometimes closes the side panel when its page is reloaded before
 * it has loaded: reloads one straight after another under load closed it twice in 29, and a CI run lost a file's
 * set-up to a reload made as the panel opened. Each reload here, as openSidePanel, waits for the header (60 in a row
 * kept the panel); one that closes it all the same opens it again as a user does, prepared, and reloads again. The
 * panel to go on with is returned.
 */
export async function reloadSidePanel(
  browser: Browser,
  extension: LoadedExtension,
  page: Page,
  panel: Page,
  { prepare, viewport }: { prepare?: (panel: Page) => Promise<unknown>; viewport?: Viewport } = {}
): Promise<Page> {
  for (let attempt = 1; ; attempt++) {
    try {
      await prepare?.(panel)
      await panel.reload({ waitUntil: "load" })
      await panel.waitForSelector("header", { timeout: 15_000 })
      return panel
    } catch (error) {
      if (attempt === 3 || !(panel.isClosed() || (error as Error).name === "TargetCloseError")) throw error
      panel = await openSidePanel(browser, extension, page, viewport)
    }
  }
}

/**
 * Injects the page index into every frame of the page at `pageUrl`, as the side panel does when it lists a page's
 * images, and waits until the top frame's answers. The question asked is the page's images, which also starts the
 * index. Retried: a page still loading may refuse the injection.
 */
export async function waitForContentScript(worker: WebWorker, pageUrl: string): Promise<void> {
  await eventually(
    () =>
      inWorker(
        worker,
        async (url: string, file: string) => {
          const [tab] = await chrome.tabs.query({ url })
          await chrome.scripting.executeScript({ target: { tabId: tab!.id!, allFrames: true }, files: [file] }).catch(() => [])
          return chrome.tabs.sendMessage(tab!.id!, { type: "PAGE_IMAGES_REQUEST" }, { frameId: 0 }).then(() => true, () => false)
        },
        pageUrl,
        PAGE_INDEX_FILE
      ),
    (answered) => {
      if (!answered) throw new Error(`The page index of ${pageUrl} does not answer`)
    }
  )
}

/** Runs a function in the extension's service worker and returns its result. */
export function inWorker<T>(worker: WebWorker, fn: (...args: never[]) => Promise<T>, ...args: unknown[]): Promise<T> {
  return worker.evaluate(fn as never, ...(args as never[])) as Promise<T>
}

/**
 * Opens the extension's own session with a site token, as the site's sign-in message makes it do, against the API
 * at `origin`; answers the extension's token.
 */
export function openExtensionSession(worker: WebWorker, origin: string, siteToken: string): Promise<string> {
  return inWorker(
    worker,
    async (apiOrigin: string, token: string) => {
      await chrome.storage.local.set({ apiOrigin })
      const response = await fetch(`${apiOrigin}/api/auth/extension-session`, { method: "POST", headers: { authorization: `Bearer ${token}` } })
      const data = ((await response.json()) as { data: { user: unknown; token: string; refreshToken: string; expiresAt: number } }).data
      const session = { user: data.user, token: data.token, refreshToken: data.refreshToken, expiresAt: data.expiresAt * 1000 }
      await chrome.storage.local.set({ extensionSession: JSON.stringify(session) })
      return data.token
    },
    origin,
    siteToken
  )
}

/** Collects console errors and uncaught exceptions of a page, for assertions. */
/** Every request the page makes to another origin than `origin` (data: URLs aside): a page of ours should make none. */
export function watchForeignRequests(page: Page, origin: string): string[] {
  const foreign: string[] = []
  page.on("request", (request) => {
    const url = request.url()
    if (!url.startsWith(origin) && !url.startsWith("data:")) foreign.push(url)
  })
  return foreign
}

export function watchPageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text())
  })
  page.on("pageerror", (error) => errors.push(error instanceof Error ? error.message : String(error)))
  return errors
}

/** What the side panel shows of an analysis, for a failure's message: its text, its note, an alert, its progress. */
export async function whatPanelShows(page: Page): Promise<string> {
  const shown = await page
    .evaluate(() =>
      ["[data-testid='ocr-text']", "[data-testid='ocr-reading']", "[role='alert']", "[role='status']"].map(
        (each) => `${each}: ${[...document.querySelectorAll(each)].map((element) => element.textContent?.trim()).join(" / ") || "(none)"}`
      )
    )
    .catch(() => ["(the page did not answer)"])
  return shown.join(" | ")
}

/**
 * Waits for `selector` in the side panel; a time-out says what the panel showed instead and the errors it logged, so
 * that a failure on a busy machine can be read from the log.
 */
export async function waitOrSayWhy(page: Page, selector: string, timeout: number, errors: readonly string[] = []) {
  try {
    return (await page.waitForSelector(selector, { timeout }))!
  } catch (error) {
    throw new Error(`${(error as Error).message}; the panel showed ${await whatPanelShows(page)}; it logged ${JSON.stringify(errors)}`)
  }
}

/**
 * Clicks what closes its own page (a Cancel, a popup's last step) and waits for the close. The page can close before
 * the click's mouse-up is answered, which puppeteer reports as TargetCloseError (a CI run failed on a Cancel so):
 * that error is the awaited close itself.
 */
export async function clickAndWaitForClose(page: Page, click: () => Promise<unknown>): Promise<void> {
  const closed = new Promise<void>((resolve) => page.once("close", () => resolve()))
  await click().catch((error: Error) => {
    if (error.name !== "TargetCloseError") throw error
  })
  await closed
}

/** Waits until the page's visible text includes `text`. */
export async function waitForPageText(page: Page, text: string, timeout = 15_000): Promise<void> {
  await page.waitForFunction((expected: string) => document.body.innerText.includes(expected), { timeout }, text)
}

/**
 * Waits until no part of the site page is still loading (the spinners' labels: "Loading …"). A card that finishes
 * loading moves everything below it, so a click read at one point can land on another.
 */
export async function waitForSiteLoaded(page: Page, timeout = 15_000): Promise<void> {
  await page.waitForFunction(() => ![...document.querySelectorAll("[role='status']")].some((status) => /^Loading\b/.test(status.textContent ?? "")), { timeout })
}

/**
 * A full-page PNG to look at. optimizeForSpeed: Chromium's fast zlib setting; a tall page took 740 ms to encode
 * against 243 ms, the file a third larger, the pixels the same (about 140 screenshots a run). Firefox (WebDriver
 * BiDi) has no such setting and refuses it.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const file = path.join(SCREENSHOT_DIR, `${name}.png`) as `${string}.png`
  const firefox = (await page.browser().version()).toLowerCase().includes("firefox")
  await page.screenshot({ optimizeForSpeed: !firefox, path: file, fullPage: true })
  return file
}

/**
 * Reads until `check` passes (then answers the value), or throws its last error after `timeoutMs`.
 * A read that throws is tried again too: what it reads may not be there yet (an element React has not
 * rendered, a content script Chrome has not injected).
 */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => void, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const value = await read()
      check(value)
      return value
    } catch (error) {
      if (Date.now() > deadline) throw error
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
