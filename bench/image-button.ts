// What the on-image button costs a page (src/extension/in-page/image-button.ts, bundled with esbuild and
// injected into a real page in headless Chromium) on pages of 100, 1,000 and 5,000 large images:
// start() (its listeners), one hover that shows the button over an image (the handler, the size
// check with its layout read, the positioning), and one pointer crossing onto a non-image element
// (the common case). Against it, in the same run: attaching one listener per image, the way the
// button avoids. Run alone with `node --import tsx bench/image-button.ts`, or call measureImageButton().
import path from "node:path"
import { fileURLToPath } from "node:url"

import type { Page } from "puppeteer-core"

import { HOST_TAG } from "~extension/in-page/button-host"
import type * as ImageButtonModule from "~extension/in-page/image-button"
import { launchBrowser } from "../tests/e2e/browser"
import { bundleForPage, median, servePages, runIfMain } from "./figures"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const PAGE_SIZES = (process.env.IMAGE_BUTTON_SIZES ?? "100,1000,5000").split(",").map(Number)
const RUNS = 7
/** Timer resolution in pages is 0.1 ms: hovers are timed in batches and divided. */
const HOVERS_PER_BATCH = 200

export interface ImageButtonFigures {
  images: number
  /** Medians in ms. */
  startMs: number
  hoverMs: number
  crossingMs: number
  perImageListenersMs: number
}

function bundleButton(): Promise<string> {
  return bundleForPage("src/extension/in-page/image-button.ts", "ImageQueryAIButton", root)
}

function pageHtml(count: number): string {
  // One URL for all: the button's work does not depend on it, and 5,000 distinct 512-px images
  // would take the browser minutes and gigabytes to decode.
  const items: string[] = []
  for (let index = 0; index < count; index++) {
    items.push(`<a class="card" href="#${index}"><img src="/big.png" alt="Image ${index}" width="120" height="90"><p>Caption ${index}</p></a>`)
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    .card { display: inline-block; margin: 2px; } .card p { margin: 0; font-size: 10px; }
  </style></head><body><main>${items.join("")}</main></body></html>`
}

function serve(): Promise<{ url: string; close(): Promise<void> }> {
  const pages = new Map(PAGE_SIZES.map((count) => [`/page-${count}.html`, pageHtml(count)]))
  return servePages(pages, "/big.png", path.join(root, "tests/fixtures/square-512.png"))
}

interface InPage {
  ImageQueryAIButton: typeof ImageButtonModule
}

async function measurePage(page: Page, baseUrl: string, count: number, bundle: string): Promise<ImageButtonFigures> {
  await page.goto(`${baseUrl}/page-${count}.html`, { waitUntil: "load", timeout: 120_000 })
  // tsx compiles the functions below with esbuild's keepNames, which calls a __name helper.
  await page.addScriptTag({ content: `window.__name = (target) => target;\n${bundle}` })

  const times = await page.evaluate(
    async (runs: number, batch: number, hostTag: string) => {
      const { ImageButton } = (window as unknown as InPage).ImageQueryAIButton
      const images = Array.from(document.querySelectorAll("img"))
      const captions = Array.from(document.querySelectorAll("p"))
      const over = (target: Element) => target.dispatchEvent(new PointerEvent("pointerover", { bubbles: true, composed: true }))
      const startTimes: number[] = []
      const hoverTimes: number[] = []
      const crossingTimes: number[] = []
      const listenerTimes: number[] = []
      let shown = 0
      for (let run = 0; run < runs; run++) {
        let start = performance.now()
        const button = new ImageButton({ onActivate: () => {} }).start()
        startTimes.push(performance.now() - start)

        // Each hover lands on another image, so each one checks it and moves the button.
        start = performance.now()
        for (let index = 0; index < batch; index++) over(images[(index * 7919 + run) % images.length]!)
        hoverTimes.push((performance.now() - start) / batch)
        shown += document.querySelector(hostTag) ? 1 : 0

        start = performance.now()
        for (let index = 0; index < batch; index++) over(captions[(index * 7919 + run) % captions.length]!)
        crossingTimes.push((performance.now() - start) / batch)
        button.stop()

        const listener = () => {}
        start = performance.now()
        for (const image of document.querySelectorAll("img")) image.addEventListener("mouseenter", listener)
        listenerTimes.push(performance.now() - start)
        for (const image of images) image.removeEventListener("mouseenter", listener)
      }
      return { startTimes, hoverTimes, crossingTimes, listenerTimes, shown }
    },
    RUNS,
    HOVERS_PER_BATCH,
    HOST_TAG
  )
  if (times.shown !== RUNS) throw new Error(`The button showed in ${times.shown} of ${RUNS} runs on the ${count}-image page`)
  return {
    images: count,
    startMs: median(times.startTimes),
    hoverMs: median(times.hoverTimes),
    crossingMs: median(times.crossingTimes),
    perImageListenersMs: median(times.listenerTimes)
  }
}

const ms = (value: number) => (value < 1 ? value.toFixed(3) : value < 10 ? value.toFixed(2) : value.toFixed(1))

export function imageButtonLines(figures: ImageButtonFigures[]): string[] {
  return figures.map(
    (figure) =>
      `On-image button, page of ${figure.images} images: start ${ms(figure.startMs)} ms, hover onto an image ${ms(figure.hoverMs)} ms, ` +
      `crossing onto another element ${ms(figure.crossingMs)} ms (one listener per image would take ${ms(figure.perImageListenersMs)} ms to attach)`
  )
}

/** Launches headless Chromium, measures every page size, and returns the figures (medians of several runs). */
export async function measureImageButton(): Promise<{ figures: ImageButtonFigures[]; lines: string[] }> {
  const bundle = await bundleButton()
  const server = await serve()
  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    const figures: ImageButtonFigures[] = []
    for (const count of PAGE_SIZES) {
      console.error(`On-image button: ${count} images…`)
      figures.push(await measurePage(page, server.url, count, bundle))
    }
    return { figures, lines: imageButtonLines(figures) }
  } finally {
    await browser.close()
    await server.close()
  }
}

runIfMain(import.meta.url, "on-image button", measureImageButton)
