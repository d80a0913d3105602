// How much the content script's image finding costs a page: the full initial scan of
// src/extension/in-page/image-watcher.ts (bundled with esbuild, injected into a real page in headless
// Chromium) against a bare querySelectorAll('img') loop on the same page in the same run, and
// the cost of one later change. Run alone with `node --import tsx bench/page-scan.ts`, or call
// measurePageScan().
import path from "node:path"
import { fileURLToPath } from "node:url"

import type { Page } from "puppeteer-core"

import type * as ImageWatcherModule from "~extension/in-page/image-watcher"
import { launchBrowser } from "../tests/e2e/browser"
import { bundleForPage, median, servePages, runIfMain } from "./figures"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const PAGE_SIZES = (process.env.PAGE_SCAN_SIZES ?? "100,1000,5000").split(",").map(Number)
const RUNS = 7
const CHANGE_RUNS = 5
const ADDED_PER_CHANGE = 10

export interface PageScanFigures {
  images: number
  elements: number
  /** Medians in ms. */
  scanMs: number
  /** Of scanMs: start(), the walk and index without rendered sizes. */
  indexMs: number
  bareLoopMs: number
  ratio: number
  /** getComputedStyle(element).backgroundImage for every element: the way the watcher avoids. */
  everyComputedStyleMs: number
  /** CPU time of the flush that indexes 10 added images. */
  changeFlushMs: number
  /** From appending 10 images to the index having them, with the default idle scheduling. */
  changeLatencyMs: number
  found: number
}

function bundleWatcher(): Promise<string> {
  return bundleForPage("src/extension/in-page/image-watcher.ts", "ImageQueryAIWatcher", root)
}

function pageHtml(count: number): string {
  const items: string[] = []
  for (let index = 0; index < count; index++) {
    items.push(`<div class="card"><img src="/img.png?i=${index}" alt="Image ${index}" width="32" height="32"><p>Caption ${index}</p></div>`)
  }
  // A few CSS backgrounds, from a rule and inline, as real pages have.
  for (let index = 0; index < 10; index++) {
    items.push(`<div class="hero" data-i="${index}"></div><div style="width:20px;height:20px;background-image:url('/img.png?bg=${index}')"></div>`)
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    .card { display: inline-block; margin: 2px; } .card p { margin: 0; font-size: 10px; }
    .hero { width: 40px; height: 40px; background: url(/img.png?hero) no-repeat; }
    .card:hover { outline: 1px solid red; }
  </style></head><body><main id="list">${items.join("")}</main><div id="later"></div></body></html>`
}

function serve(): Promise<{ url: string; close(): Promise<void> }> {
  const pages = new Map(PAGE_SIZES.map((count) => [`/page-${count}.html`, pageHtml(count)]))
  return servePages(pages, "/img.png", path.join(root, "tests/fixtures/square-64.png"))
}

interface InPage {
  ImageQueryAIWatcher: typeof ImageWatcherModule
}

async function measurePage(page: Page, baseUrl: string, count: number, bundle: string): Promise<PageScanFigures> {
  await page.goto(`${baseUrl}/page-${count}.html`, { waitUntil: "load", timeout: 120_000 })
  // tsx compiles the functions below with esbuild's keepNames, which calls a __name helper.
  await page.addScriptTag({ content: `window.__name = (target) => target;\n${bundle}` })

  const scan = await page.evaluate(async (runs: number) => {
    const { ImageWatcher } = (window as unknown as InPage).ImageQueryAIWatcher
    // Every run starts from invalidated style and layout (an inherited custom property on body),
    // as the first scan of a page would; the two ways alternate so neither gets a warmer cache.
    let tick = 0
    const invalidate = () => document.body.style.setProperty("--bench-tick", String(++tick))
    const scanTimes: number[] = []
    const startTimes: number[] = []
    const bareTimes: number[] = []
    const everyTimes: number[] = []
    let found = 0
    let sink = 0
    for (let run = 0; run < runs; run++) {
      invalidate()
      let start = performance.now()
      const watcher = new ImageWatcher({ probeBackgrounds: false }).start()
      const started = performance.now()
      found = watcher.images().length
      scanTimes.push(performance.now() - start)
      startTimes.push(started - start)
      watcher.stop()

      invalidate()
      start = performance.now()
      const bare: { url: string; width: number; height: number; rendered: DOMRect }[] = []
      for (const image of Array.from(document.querySelectorAll("img"))) {
        bare.push({ url: image.currentSrc, width: image.naturalWidth, height: image.naturalHeight, rendered: image.getBoundingClientRect() })
      }
      bareTimes.push(performance.now() - start)
      sink += bare.length

      invalidate()
      start = performance.now()
      for (const element of Array.from(document.querySelectorAll("*"))) sink += getComputedStyle(element).backgroundImage.length
      everyTimes.push(performance.now() - start)
    }
    return { scanTimes, startTimes, bareTimes, everyTimes, found, sink, elements: document.getElementsByTagName("*").length }
  }, RUNS)

  const change = await page.evaluate(
    async (runs: number, added: number) => {
      const { ImageWatcher } = (window as unknown as InPage).ImageQueryAIWatcher
      const later = document.getElementById("later")!
      const addImages = (run: number, kind: string) => {
        for (let index = 0; index < added; index++) {
          const image = document.createElement("img")
          image.src = `/img.png?${kind}=${run}-${index}`
          later.append(image)
        }
      }
      const delivered = () => new Promise<void>((resolve) => queueMicrotask(resolve))

      // The flush's own cost: a scheduler that never runs, then an explicit flush.
      const flushTimes: number[] = []
      const manual = new ImageWatcher({ probeBackgrounds: false, schedule: () => () => {} }).start()
      for (let run = 0; run < runs; run++) {
        addImages(run, "flush")
        await delivered()
        const start = performance.now()
        manual.flush()
        flushTimes.push(performance.now() - start)
      }
      manual.stop()

      // End to end with the default idle scheduling, as the content script runs it.
      const latencies: number[] = []
      for (let run = 0; run < runs; run++) {
        let done: (() => void) | null = null
        const watcher = new ImageWatcher({ probeBackgrounds: false, onChange: () => done?.() }).start()
        const indexed = new Promise<void>((resolve) => (done = resolve))
        const start = performance.now()
        addImages(run, "latency")
        await indexed
        latencies.push(performance.now() - start)
        watcher.stop()
      }
      return { flushTimes, latencies }
    },
    CHANGE_RUNS,
    ADDED_PER_CHANGE
  )

  const scanMs = median(scan.scanTimes)
  const bareLoopMs = median(scan.bareTimes)
  return {
    images: count,
    elements: scan.elements,
    scanMs,
    indexMs: median(scan.startTimes),
    bareLoopMs,
    ratio: scanMs / bareLoopMs,
    everyComputedStyleMs: median(scan.everyTimes),
    changeFlushMs: median(change.flushTimes),
    changeLatencyMs: median(change.latencies),
    found: scan.found
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))

export function pageScanLines(figures: PageScanFigures[]): string[] {
  return figures.flatMap((figure) => [
    `Page scan ${figure.images} images: ${ms(figure.scanMs)} ms (bare loop ${ms(figure.bareLoopMs)} ms, ratio ${figure.ratio.toFixed(2)}); ` +
      `index ${ms(figure.indexMs)} ms + sizes ${ms(figure.scanMs - figure.indexMs)} ms; ` +
      `${figure.found} found among ${figure.elements} elements; computed style of every element would add ${ms(figure.everyComputedStyleMs)} ms`,
    `Page with ${figure.images} images, ${ADDED_PER_CHANGE} images added: flush ${ms(figure.changeFlushMs)} ms, indexed after ${ms(figure.changeLatencyMs)} ms (idle-scheduled)`
  ])
}

/** Launches headless Chromium, measures every page size, and returns the figures (medians of several runs). */
export async function measurePageScan(): Promise<{ figures: PageScanFigures[]; lines: string[] }> {
  const bundle = await bundleWatcher()
  const server = await serve()
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    const figures: PageScanFigures[] = []
    for (const count of PAGE_SIZES) {
      console.error(`Page scan: ${count} images…`)
      figures.push(await measurePage(page, server.url, count, bundle))
    }
    return { figures, lines: pageScanLines(figures) }
  } finally {
    await browser.close()
    await server.close()
  }
}

runIfMain(import.meta.url, "page-scan", measurePageScan)
