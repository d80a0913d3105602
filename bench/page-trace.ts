// What the benches read from Chromium's performance traces of a page: the main thread's busy time (its tasks, nested
// and overlapping events counted once) over a window, and the part of it spent in the extension's scripts. Shared by
// bench/find-in-images.ts, bench/content-scripts.ts and bench/page-translation.ts, which compare a page with the
// extension against the same page without it.
import fs from "node:fs"
import path from "node:path"

import type { Page } from "puppeteer-core"

export interface TraceEvent {
  name: string
  cat?: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { data?: { url?: string; scriptName?: string; frame?: string } }
}

export const TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "v8"]

/** Total length of the union of intervals in microseconds, in ms (so that nested events count once). */
export function unionMs(intervals: [number, number][]): number {
  let total = 0
  let end = -Infinity
  for (const [from, to] of intervals.sort((a, b) => a[0] - b[0])) {
    if (to <= end) continue
    total += to - Math.max(from, end)
    end = to
  }
  return total / 1000
}

export const spanOf = (event: TraceEvent): [number, number] => [event.ts, event.ts + event.dur!]

/**
 * The page's main-thread busy time over `windowMs`, and the part of it spent in the extension's scripts: a mark in the
 * page names its renderer's main thread in the trace. The extension's messages reach its isolated world as calls with
 * no script URL (Chrome's messaging calls into it); the page's own scripts have theirs.
 */
export async function busyWindow(page: Page, windowMs: number): Promise<{ busy: number; extension: number }> {
  const file = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "iqa-page-trace-")), "trace.json")
  await page.tracing.start({ path: file, categories: TRACE_CATEGORIES })
  await page.evaluate(() => performance.mark("iqa-bench-window"))
  await new Promise((resolve) => setTimeout(resolve, windowMs))
  await page.tracing.stop()
  const { traceEvents } = JSON.parse(fs.readFileSync(file, "utf8")) as { traceEvents: TraceEvent[] }
  fs.rmSync(path.dirname(file), { recursive: true, force: true })
  const mark = traceEvents.find((event) => event.name === "iqa-bench-window")
  if (!mark) throw new Error("The page's mark is not in the trace")
  const onPage = traceEvents.filter((event) => event.ph === "X" && event.pid === mark.pid && event.tid === mark.tid && typeof event.dur === "number")
  const ours = onPage.filter((event) => {
    const url = event.args?.data?.url ?? event.args?.data?.scriptName
    return (event.name === "FunctionCall" && url === "") || url?.startsWith("chrome-extension://")
  })
  return { busy: unionMs(onPage.filter((event) => event.name === "RunTask").map(spanOf)), extension: unionMs(ours.map(spanOf)) }
}
