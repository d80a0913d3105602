// Find in images (src/panel/find/): what reading a page's images costs, and how fast the search answers.
// - On a page of 5,000 images (as bench/page-scan.ts's largest; here text signs, face-api's sample photo and plain
//   squares in turn, all large enough for the list) with the built extension's side panel reading them: the time per
//   image read while the page stands still, and the page's main-thread busy time in windows of WINDOW_MS while the
//   page scrolls with reading on (it waits for a quiet page, so few images are read then), against the same page in a
//   browser without the extension, the two taken in turn (target: ratio ≤ 1.10). Busy time is read from a performance
//   trace: the page's renderer main thread's tasks, overlaps counted once.
// - Search latency: the panel's image list (ImagesSection, bundled with esbuild, with the panel's CSS) with 500 images
//   read, typed into in headless Chromium: per keystroke, the filter and React's render (input event to the end of
//   its handling) and to the next frame (target < 100 ms).
// Run alone with `node --import tsx bench/find-in-images.ts`, or call measureFindInImages().
import fs from "node:fs"
import http from "node:http"
import type net from "node:net"
import path from "node:path"
import { fileURLToPath } from "node:url"

import type { Browser, Page } from "puppeteer-core"

import { siteMountDefine } from "../scripts/site-mount-build.mjs"
import { EXTENSION_DIR, installExtension, launchBrowser, openSidePanel, waitForContentScript } from "../tests/e2e/browser"
import { drawTextImage } from "../tests/e2e/text-image"
import { mean, median, runIfMain } from "./figures"
import { busyWindow } from "./page-trace"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const PAGE_IMAGES = 5000
const WINDOW_MS = 12_000
/** Six of each: the page's paint work varies by a third from window to window; the mean over six steadies it. */
const WINDOWS = 6
/** The window in which the page stands still while the panel reads (the scrolling ones are numbered from 0). */
const STILL_WINDOW = -2
const SEARCH_IMAGES = 500
const KINDS = ["text", "photo", "plain"] as const
type Kind = (typeof KINDS)[number]

export interface FindInImagesFigures {
  pageImages: number
  /** Images read in WINDOW_MS while the page stood still, and the median seconds per image, overall and per kind. */
  imagesRead: number
  secondsPerImage: number
  secondsPerImageByKind: Partial<Record<Kind, number>>
  /** Images read while the page scrolled (reading waits for the page to be left alone for a moment). */
  readWhileScrolling: number
  /** Mean ms the page's main thread was busy per window. */
  busyWithReadingMs: number
  /** Of busyWithReadingMs: the page index's own script (the rest of the difference is the CPU the extension's other parts take, and noise). */
  pageIndexScriptMs: number
  busyBareMs: number
  ratio: number
  /** Typed letters narrow the list; clearing the box (select all, Backspace) shows all 500 cards again. */
  search: { images: number; keystrokes: number; renderMedianMs: number; renderMaxMs: number; frameMedianMs: number; frameMaxMs: number; clearFrameMaxMs: number }
}

function pageHtml(): string {
  const items: string[] = []
  for (let index = 0; index < PAGE_IMAGES; index++) {
    const kind = KINDS[index % KINDS.length]
    items.push(`<div class="card"><img src="/${kind}?i=${index}" alt="Image ${index}" width="32" height="32"><p>Caption ${index}</p></div>`)
  }
  // The page keeps scrolling, as a reader's would: layout, paint and scroll work on its main thread.
  return `<!doctype html><html><head><meta charset="utf-8"><title>5,000 images</title><style>
    .card { display: inline-block; margin: 2px; } .card p { margin: 0; font-size: 10px; }
  </style></head><body><main>${items.join("")}</main><script>
    let step = 60, timer = 0
    window.startScrolling = () => { timer = setInterval(() => {
      if (scrollY + innerHeight >= document.documentElement.scrollHeight - 2 || (scrollY === 0 && step < 0)) step = -step
      scrollBy(0, step) }, 50) }
    window.stopScrolling = () => clearInterval(timer)
  </script></body></html>`
}

async function serve(files: Record<string, { type: string; body: Buffer | string }>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://bench").pathname]
    if (!file) response.writeHead(404).end()
    else response.writeHead(200, { "content-type": file.type, "cache-control": "max-age=3600" }).end(file.body)
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  }
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage()
  await page.setViewport({ width: 1280, height: 900 })
  await page.goto(url, { waitUntil: "load", timeout: 180_000 })
  return page
}

const progressOf = (panel: Page) => panel.$eval("[data-testid='find-progress']", (element) => Number(/Read (\d+) of/.exec(element.textContent ?? "")?.[1] ?? 0))
const scrolling = (page: Page, on: boolean) =>
  page.evaluate((start: boolean) => {
    const scroller = window as unknown as { startScrolling(): void; stopScrolling(): void }
    if (start) scroller.startScrolling()
    else scroller.stopScrolling()
  }, on)

/**
 * The page with the panel reading, and the same page in a browser without the extension, both open, their windows
 * taken in turn so that the load of this shared machine weighs on both alike: while one page scrolls and is traced,
 * the other stands still and the panel's reading is stopped.
 */
async function measureReading(pageUrl: string) {
  const withExtension = await launchBrowser({ extension: true })
  const bare = await launchBrowser()
  try {
    const extension = await installExtension(withExtension)
    const page = await openPage(withExtension, pageUrl)
    await waitForContentScript(extension.worker, pageUrl)
    const panel = await openSidePanel(withExtension, extension, page)
    await panel.waitForFunction((count: number) => document.querySelector("[data-testid='image-count']")?.textContent === `${count} images`, { timeout: 180_000 }, PAGE_IMAGES)
    const barePage = await openPage(bare, pageUrl)
    const fetches: { kind: Kind; at: number; window: number }[] = []
    let window = -1
    panel.on("request", (request) => {
      const kind = /\/(text|photo|plain)\?i=/.exec(request.url())?.[1] as Kind | undefined
      if (request.resourceType() === "fetch" && kind) fetches.push({ kind, at: Date.now(), window })
    })
    await (await panel.waitForSelector("xpath/.//button[normalize-space()='Read images']"))!.click()
    // The engines load with the first image: the windows measure reading itself.
    await panel.waitForFunction(() => /Read [1-9]/.test(document.querySelector("[data-testid='find-progress']")?.textContent ?? ""), { timeout: 180_000 })
    // Reading while the page stands still: its pace, image by image.
    window = STILL_WINDOW
    const readBeforeStill = await progressOf(panel)
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS))
    const imagesRead = (await progressOf(panel)) - readBeforeStill
    const busyWith: { busy: number; extension: number }[] = []
    const busyBare: { busy: number; extension: number }[] = []
    let readWhileScrolling = 0
    for (window = 0; window < WINDOWS; window++) {
      if (window > 0) await (await panel.waitForSelector("xpath/.//button[normalize-space()='Continue']"))!.click()
      const readBefore = await progressOf(panel)
      await scrolling(page, true)
      busyWith.push(await busyWindow(page, WINDOW_MS))
      readWhileScrolling += (await progressOf(panel)) - readBefore
      await scrolling(page, false)
      await (await panel.waitForSelector("xpath/.//button[normalize-space()='Stop']"))!.click()
      await panel.waitForFunction(() => /^Stopped\./.test(document.querySelector("[data-testid='find-progress']")?.textContent ?? ""), { timeout: 60_000 })
      await scrolling(barePage, true)
      busyBare.push(await busyWindow(barePage, WINDOW_MS))
      await scrolling(barePage, false)
    }
    // Each image's time: from its fetch to the next one's, while the page stood still.
    const byKind: Partial<Record<Kind, number[]>> = {}
    for (let index = 1; index < fetches.length; index++) {
      const [previous, next] = [fetches[index - 1]!, fetches[index]!]
      if (previous.window === STILL_WINDOW && next.window === STILL_WINDOW) (byKind[previous.kind] ??= []).push((next.at - previous.at) / 1000)
    }
    const secondsPerImageByKind = Object.fromEntries(Object.entries(byKind).map(([kind, times]) => [kind, median(times)]))
    return {
      imagesRead,
      readWhileScrolling,
      busy: mean(busyWith.map((window) => window.busy)),
      extension: mean(busyWith.map((window) => window.extension)),
      bareBusy: mean(busyBare.map((window) => window.busy)),
      secondsPerImageByKind
    }
  } finally {
    await withExtension.close()
    await bare.close()
  }
}

async function bundleHarness(): Promise<string> {
  const { build } = await import("esbuild")
  const result = await build({
    entryPoints: [path.join(root, "bench/find-in-images-harness.tsx")],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "FindHarness",
    target: "chrome120",
    jsx: "automatic",
    alias: { "~core": path.join(root, "src/core"), "~panel": path.join(root, "src/panel"), "~extension": path.join(root, "src/extension"), "~ui": path.join(root, "src/ui") },
    // What Plasmo inlined in the built extension (NODE_ENV and the PLASMO_PUBLIC_ variables): the panel's modules read
    // them, and a page has no process.env.
    define: siteMountDefine(EXTENSION_DIR),
    logLevel: "silent"
  })
  return result.outputFiles[0]!.text
}

/** The panel's built CSS (Tailwind), so layout is the panel's; none when the extension is not built. */
function panelCss(): string {
  const folder = path.join(EXTENSION_DIR, "tabs")
  const file = fs.existsSync(folder) ? fs.readdirSync(folder).find((name) => name.endsWith(".css")) : undefined
  return file ? fs.readFileSync(path.join(folder, file), "utf8") : ""
}

async function measureSearch(baseUrl: string): Promise<FindInImagesFigures["search"]> {
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    await page.setViewport({ width: 400, height: 900 })
    await page.goto(`${baseUrl}/search.html`, { waitUntil: "load" })
    await page.addStyleTag({ content: panelCss() })
    await page.addScriptTag({ content: await bundleHarness() })
    await page.evaluate((count: number, imageBase: string) => {
      const timings: { render: number[]; frame: { key: string; ms: number }[] } = { render: [], frame: [] }
      let inputStart = 0
      // Capture on the document runs before React's listener on its root, bubbling after it.
      document.addEventListener("input", () => (inputStart = performance.now()), true)
      document.addEventListener("input", () => timings.render.push(performance.now() - inputStart))
      document.addEventListener(
        "keydown",
        (event) => {
          const start = event.timeStamp
          requestAnimationFrame(() => setTimeout(() => timings.frame.push({ key: event.key, ms: performance.now() - start })))
        },
        true
      )
      Object.assign(window, { timings })
      ;(window as unknown as { FindHarness: { mount(container: HTMLElement, count: number, base: string): void } }).FindHarness.mount(document.getElementById("root")!, count, imageBase)
    }, SEARCH_IMAGES, `${baseUrl}/plain`)
    await page.waitForFunction((count: number) => document.querySelectorAll("ul[aria-label='Images on this page'] li").length === count, {}, SEARCH_IMAGES)
    const box = (await page.$("input#find-in-images"))!
    for (const query of ["harbour", "lighthouse tours", "person", "bread"]) {
      await box.type(query, { delay: 60 })
      // Back to the whole list of 500: the heaviest render.
      await box.click({ count: 3 })
      await page.keyboard.press("Backspace")
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
    const timings = await page.evaluate(() => (window as unknown as { timings: { render: number[]; frame: { key: string; ms: number }[] } }).timings)
    const typed = timings.frame.filter(({ key }) => key.length === 1).map(({ ms }) => ms)
    const cleared = timings.frame.filter(({ key }) => key === "Backspace").map(({ ms }) => ms)
    return {
      images: SEARCH_IMAGES,
      keystrokes: typed.length,
      renderMedianMs: median(timings.render),
      renderMaxMs: Math.max(...timings.render),
      frameMedianMs: median(typed),
      frameMaxMs: Math.max(...typed),
      clearFrameMaxMs: Math.max(...cleared)
    }
  } finally {
    await browser.close()
  }
}

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`

export function findInImagesLines(figures: FindInImagesFigures): string[] {
  const kinds = Object.entries(figures.secondsPerImageByKind)
    .map(([kind, seconds]) => `${kind} ${seconds.toFixed(2)} s`)
    .join(", ")
  const { search } = figures
  return [
    `Find in images, ${figures.pageImages.toLocaleString("en")}-image page standing still: ${figures.secondsPerImage.toFixed(2)} s per image read (${figures.imagesRead} read in ${WINDOW_MS / 1000} s; median by kind: ${kinds})`,
    `Find in images, page main thread with reading on while the page scrolls: ${ms(figures.busyWithReadingMs)} busy per ${WINDOW_MS / 1000} s (the page index's script ${ms(figures.pageIndexScriptMs)}; ${figures.readWhileScrolling} image${figures.readWhileScrolling === 1 ? "" : "s"} read in ${WINDOWS} × ${WINDOW_MS / 1000} s: reading waits for a quiet page), without the extension ${ms(figures.busyBareMs)} (ratio ${figures.ratio.toFixed(2)}; target ≤ 1.10)`,
    `Find in images, search with ${search.images} images read: keystroke to filtered list ${ms(search.renderMedianMs)} median, ${ms(search.renderMaxMs)} max (filter + React render); to the next frame ${ms(search.frameMedianMs)} median, ${ms(search.frameMaxMs)} max over ${search.keystrokes} letters typed (target < 100 ms); clearing the box to the whole list at the next frame ${ms(search.clearFrameMaxMs)} at most`
  ]
}

export async function measureFindInImages(): Promise<{ figures: FindInImagesFigures; lines: string[] }> {
  const drawing = await launchBrowser()
  const text = await drawTextImage(drawing, ["HARBOUR TOURS", "OPEN DAILY"], { minHeight: 440 }).finally(() => drawing.close())
  const server = await serve({
    "/page.html": { type: "text/html; charset=utf-8", body: pageHtml() },
    "/search.html": { type: "text/html; charset=utf-8", body: '<!doctype html><html lang="en"><body class="bg-gray-50"><div id="root" class="p-4"></div></body></html>' },
    "/text": { type: "image/png", body: text },
    "/photo": { type: "image/jpeg", body: fs.readFileSync(path.join(root, "node_modules/@vladmandic/face-api/demo/sample1.jpg")) },
    "/plain": { type: "image/png", body: fs.readFileSync(path.join(root, "tests/fixtures/square-512.png")) }
  })
  try {
    console.error(`Find in images: the side panel reading a page of ${PAGE_IMAGES} images, and the page without the extension…`)
    const reading = await measureReading(`${server.url}/page.html`)
    console.error(`Find in images: typing into the list with ${SEARCH_IMAGES} images read…`)
    const search = await measureSearch(server.url)
    const figures: FindInImagesFigures = {
      pageImages: PAGE_IMAGES,
      imagesRead: reading.imagesRead,
      secondsPerImage: WINDOW_MS / 1000 / Math.max(1, reading.imagesRead),
      readWhileScrolling: reading.readWhileScrolling,
      secondsPerImageByKind: reading.secondsPerImageByKind,
      busyWithReadingMs: reading.busy,
      pageIndexScriptMs: reading.extension,
      busyBareMs: reading.bareBusy,
      ratio: reading.busy / reading.bareBusy,
      search
    }
    return { figures, lines: findInImagesLines(figures) }
  } finally {
    await server.close()
  }
}

runIfMain(import.meta.url, "find-in-images", measureFindInImages)
