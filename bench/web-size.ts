// What a first visit to the landing page costs: the JavaScript it downloads (raw and gzip, the
// way a compressing server or CDN would send it) and the time to its first contentful paint, in
// headless Chromium against `npm start` on loopback. Each run is a fresh browser context, so
// nothing is cached. Also checks that the admin and blog code stays out of that load. Run alone
// with `node --import tsx bench/web-size.ts`, or call measureWebSize().
import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { gzipSync } from "node:zlib"

import { launchBrowser } from "../tests/e2e/browser"
import { startServer } from "./server-process"
import { ensureCurrentWebBuild } from "./web-build"
import { median, runIfMain } from "./figures"

const RUNS = 5
/** The issue's budget for the landing page's JavaScript. */
export const LANDING_JS_BUDGET_GZIP_BYTES = 200 * 1024
/** Chunks that must never be part of the landing page's load. */
const SPLIT_OUT = /\/(Admin|FeedbackInbox|PasswordPolicy|Blog|BlogPost|posts|BlogPieces)[^/]*\.js$/

export interface WebSizeFigures {
  scripts: { file: string; bytes: number; gzipBytes: number }[]
  jsBytes: number
  jsGzipBytes: number
  /** Median of the runs, in ms from navigation start. */
  firstContentfulPaintMs: number
  fcpRunsMs: number[]
  splitOutLoaded: string[]
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export async function measureWebSize(): Promise<{ figures: WebSizeFigures; lines: string[] }> {
  if (ensureCurrentWebBuild()) console.error("Built dist/web first.")
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-bench-web-"))
  const server = await startServer(dataDir)
  const browser = await launchBrowser()
  try {
    const fcpRunsMs: number[] = []
    let scripts = new Map<string, Buffer>()
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.createBrowserContext()
      try {
        const page = await context.newPage()
        await page.setViewport({ width: 1280, height: 900 })
        const loaded = new Map<string, Promise<Buffer>>()
        page.on("response", (response) => {
          if (response.request().resourceType() === "script") loaded.set(response.url(), response.buffer())
        })
        await page.goto(`${server.baseUrl}/`, { waitUntil: "networkidle0" })
        await page.waitForSelector("main h1")
        const fcp = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const entry = performance.getEntriesByName("first-contentful-paint")[0]
              if (entry) return resolve(entry.startTime)
              new PerformanceObserver((list) => resolve(list.getEntries()[0]!.startTime)).observe({ type: "paint", buffered: true })
            })
        )
        fcpRunsMs.push(Math.round(fcp * 10) / 10)
        scripts = new Map(await Promise.all([...loaded].map(async ([url, body]) => [url, await body] as const)))
      } finally {
        await context.close()
      }
    }
    const files = [...scripts].map(([url, body]) => ({
      file: new URL(url).pathname,
      bytes: body.length,
      gzipBytes: gzipSync(body).length
    }))
    const figures: WebSizeFigures = {
      scripts: files.sort((a, b) => b.gzipBytes - a.gzipBytes),
      jsBytes: files.reduce((sum, file) => sum + file.bytes, 0),
      jsGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
      firstContentfulPaintMs: median(fcpRunsMs),
      fcpRunsMs,
      splitOutLoaded: files.map((file) => file.file).filter((file) => SPLIT_OUT.test(file))
    }
    const lines = [
      `Landing page first visit: ${files.length} JavaScript files, ${kb(figures.jsBytes)} raw, ${kb(figures.jsGzipBytes)} gzip ` +
        `(budget ${kb(LANDING_JS_BUDGET_GZIP_BYTES)}: ${figures.jsGzipBytes <= LANDING_JS_BUDGET_GZIP_BYTES ? "within" : "OVER"}); ` +
        `largest ${figures.scripts
          .slice(0, 3)
          .map((file) => `${path.basename(file.file)} ${kb(file.gzipBytes)}`)
          .join(", ")}`,
      `Landing page first contentful paint (headless Chromium, loopback, no cache): median ${figures.firstContentfulPaintMs} ms of ${RUNS} runs (${fcpRunsMs.join(", ")} ms)`,
      figures.splitOutLoaded.length === 0
        ? "Admin and blog code: not in the landing page's load"
        : `WARNING: the landing page loaded admin or blog code: ${figures.splitOutLoaded.join(", ")}`
    ]
    return { figures, lines }
  } finally {
    await browser.close()
    await server.stop().catch(() => undefined)
    server.kill()
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, "web-size", measureWebSize)
