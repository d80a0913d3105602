// What the extension costs every page the user opens: the size of each content script of the built extension
// (they run in every frame of every page), and the script time they add to a page of 50 frames in headless
// Chromium, parse and compile apart. Script time is read from a performance trace: the time of every trace event on
// the page's main thread whose script is one of the extension's, overlaps counted once. The same page loads without
// the extension in the same run, as the bare comparison: the main thread's busy time with and without the extension
// (which also counts what the extension's scripts cost outside their own code: each frame's isolated world).
// Set CONTENT_SCRIPT_PAGES to a folder of saved pages (*.html) to measure those too.
// Run alone with `node --import tsx bench/content-scripts.ts`, or call measureContentScripts().
import fs from "node:fs"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"

import { contentScriptSizes, CONTENT_SCRIPT_BUDGET_BYTES, type PageScript } from "../tests/content-scripts"
import { installExtension, launchBrowser } from "../tests/e2e/browser"
import { median, runIfMain, servePages } from "./figures"
import { spanOf, type TraceEvent, unionMs } from "./page-trace"

const FRAMES = 50
const RUNS = 7
/** Content scripts run at document_idle, which Chrome may reach after the load event. */
const SETTLE_MS = 1_000
const TRACE_CATEGORIES = ["devtools.timeline", "v8", "disabled-by-default-devtools.timeline"]

export interface PageScriptTime {
  /** ms of the extension's script time on the page's main thread, and the part of it spent parsing and compiling. */
  extensionMs: number
  compileMs: number
  /** ms the page's main thread was busy in all (the extension's scripts, its worlds' set-up, the page's own work). */
  busyMs: number
}

export interface ContentScriptFigures {
  sizes: PageScript[]
  framesPage: { frames: number; withExtension: PageScriptTime; bareBusyMs: number }
  savedPages?: { pages: number; medianMs: number; maxMs: number; slowest: string }
}

function framesPages(): Map<string, string> {
  const pages = new Map<string, string>()
  const frames = Array.from({ length: FRAMES }, (_, index) => `<iframe src="/frame/${index}" width="300" height="200" title="Frame ${index}"></iframe>`)
  pages.set("/frames", `<!doctype html><title>50 frames</title><h1>A page of ${FRAMES} frames</h1>${frames.join("")}`)
  for (let index = 0; index < FRAMES; index++) {
    const images = Array.from({ length: 5 }, (_, image) => `<img src="/big.png" alt="Image ${image}" width="120" height="90">`)
    pages.set(`/frame/${index}`, `<!doctype html><title>Frame ${index}</title><p>Frame ${index} text.</p>${images.join("")}`)
  }
  return pages
}

function scriptUrlOf(event: TraceEvent): string {
  return event.args?.data?.url ?? event.args?.data?.scriptName ?? ""
}

/** The extension's script time in a trace of one page load (events of its chrome-extension: scripts), and the main thread's busy time. */
export function scriptTimeOf(trace: { traceEvents: TraceEvent[] }, extensionId: string | null): PageScriptTime {
  // The renderer's main thread is the one that parses the page's HTML.
  const mainThreads = new Set(trace.traceEvents.filter((event) => event.name === "ParseHTML").map((event) => event.tid))
  const tasks = trace.traceEvents.filter((event) => event.name === "RunTask" && event.ph === "X" && mainThreads.has(event.tid) && typeof event.dur === "number")
  const scripted = trace.traceEvents.filter((event) => event.ph === "X" && typeof event.dur === "number" && scriptUrlOf(event) !== "")
  const ours = (event: TraceEvent) => extensionId !== null && scriptUrlOf(event).startsWith(`chrome-extension://${extensionId}/`)
  return {
    extensionMs: unionMs(scripted.filter(ours).map(spanOf)),
    compileMs: unionMs(scripted.filter((event) => ours(event) && /compile|parse/i.test(event.name)).map(spanOf)),
    busyMs: unionMs(tasks.map(spanOf))
  }
}

async function tracedLoad(page: Page, url: string, extensionId: string | null) {
  const file = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "iqa-trace-")), "trace.json")
  await page.tracing.start({ path: file, categories: TRACE_CATEGORIES })
  await page.goto(url, { waitUntil: "load" })
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
  await page.tracing.stop()
  const trace = JSON.parse(fs.readFileSync(file, "utf8")) as { traceEvents: TraceEvent[] }
  fs.rmSync(path.dirname(file), { recursive: true, force: true })
  return scriptTimeOf(trace, extensionId)
}

async function medianLoad(browser: Browser, url: string, extensionId: string | null, runs: number) {
  const figures: ReturnType<typeof scriptTimeOf>[] = []
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage()
    try {
      figures.push(await tracedLoad(page, url, extensionId))
    } finally {
      await page.close()
    }
  }
  return {
    extensionMs: median(figures.map((figure) => figure.extensionMs)),
    compileMs: median(figures.map((figure) => figure.compileMs)),
    busyMs: median(figures.map((figure) => figure.busyMs))
  }
}

function savedPages(folder: string): Map<string, string> {
  const pages = new Map<string, string>()
  for (const name of fs.readdirSync(folder).filter((file) => file.endsWith(".html")).sort()) {
    pages.set(`/saved/${name}`, fs.readFileSync(path.join(folder, name), "utf8"))
  }
  return pages
}

const oneDecimal = (value: number) => Math.round(value * 10) / 10

export async function measureContentScripts(): Promise<{ figures: ContentScriptFigures; lines: string[] }> {
  const sizes = contentScriptSizes()
  const savedFolder = process.env.CONTENT_SCRIPT_PAGES
  const saved = savedFolder ? savedPages(savedFolder) : new Map<string, string>()
  const server = await servePages(new Map([...framesPages(), ...saved]), "/big.png", path.resolve("tests/fixtures/square-512.png"))
  // Saved pages name hosts that are not reachable from here: they fail at once instead of waiting for a time-out.
  const args = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
  const bare = await launchBrowser({ args })
  const withExtension = await launchBrowser({ extension: true, args })
  try {
    const { id } = await installExtension(withExtension)
    console.error(`Content scripts: a page of ${FRAMES} frames, ${RUNS} loads with the extension and ${RUNS} without…`)
    const framesUrl = `${server.url}/frames`
    const ours = await medianLoad(withExtension, framesUrl, id, RUNS)
    const without = await medianLoad(bare, framesUrl, null, RUNS)
    const figures: ContentScriptFigures = {
      sizes,
      framesPage: {
        frames: FRAMES,
        withExtension: { extensionMs: oneDecimal(ours.extensionMs), compileMs: oneDecimal(ours.compileMs), busyMs: oneDecimal(ours.busyMs) },
        bareBusyMs: oneDecimal(without.busyMs)
      }
    }
    if (saved.size > 0) {
      console.error(`Content scripts: ${saved.size} saved pages, one load each…`)
      const perPage: { page: string; ms: number }[] = []
      for (const pagePath of saved.keys()) {
        perPage.push({ page: path.basename(pagePath), ms: (await medianLoad(withExtension, server.url + pagePath, id, 1)).extensionMs })
        if (perPage.length % 10 === 0) console.error(`  ${perPage.length} of ${saved.size}`)
      }
      const slowest = perPage.reduce((worst, entry) => (entry.ms > worst.ms ? entry : worst))
      figures.savedPages = { pages: perPage.length, medianMs: oneDecimal(median(perPage.map(({ ms }) => ms))), maxMs: oneDecimal(slowest.ms), slowest: slowest.page }
    }
    return { figures, lines: contentScriptLines(figures) }
  } finally {
    await withExtension.close()
    await bare.close()
    await server.close()
  }
}

function contentScriptLines({ sizes, framesPage, savedPages: saved }: ContentScriptFigures): string[] {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  return [
    `Scripts in pages (budget ${kb(CONTENT_SCRIPT_BUDGET_BYTES)} each): ${sizes.map(({ file, bytes, runs }) => `${file} ${kb(bytes)} (${runs})`).join(", ")}; ` +
      `${kb(sizes.filter(({ runs }) => runs === "every frame").reduce((sum, { bytes }) => sum + bytes, 0))} in every frame of every page`,
    `Content scripts on a page of ${framesPage.frames} frames (median of ${RUNS} loads): ${framesPage.withExtension.extensionMs} ms of the extension's script time ` +
      `(${framesPage.withExtension.compileMs} ms of it parsing and compiling); main thread busy ${framesPage.withExtension.busyMs} ms with the extension, ${framesPage.bareBusyMs} ms without`,
    ...(saved ? [`Content scripts on ${saved.pages} saved pages: the extension's script time per page, median ${saved.medianMs} ms, max ${saved.maxMs} ms (${saved.slowest})`] : [])
  ]
}

runIfMain(import.meta.url, "content-script", measureContentScripts)
