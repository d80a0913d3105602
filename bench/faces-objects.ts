// Local faces and objects speed on face-api's demo/sample1.jpg (1920 × 1280, three faces), in
// headless Chromium with the built extension, through the engine check page (tabs/engines.html):
// cold — engine start (tfjs wasm backend, the library and its models) plus the first analysis,
// each in a fresh page — and warm, the median of several "Run again" analyses of the already
// decoded image, for the tiny and SSD face detectors, the tiny detector with age, gender and
// expression, and Human's CenterNet objects.
// Run alone with `node --import tsx bench/faces-objects.ts`, or call measureFacesObjects().
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

import type { Browser, Page } from "puppeteer-core"

import type { DetectionKind } from "~analysis/DetectionCheck"
import { installExtension, launchBrowser } from "../tests/e2e/browser"
import { median } from "./figures"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const BUILD_DIR = path.join(root, "build/chrome-mv3-prod")
const require = createRequire(path.join(root, "package.json"))
const SAMPLE_FILE = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "demo/sample1.jpg")
const COLD_RUNS = 3
const WARM_RUNS = 7
const TIMEOUT_MS = 90_000

const CASES: { name: string; kind: DetectionKind; attributes: boolean }[] = [
  { name: "faces tiny", kind: "faces-tiny", attributes: false },
  { name: "faces SSD", kind: "faces-ssd", attributes: false },
  { name: "faces tiny + age, gender, expression", kind: "faces-tiny", attributes: true },
  { name: "objects (CenterNet)", kind: "objects", attributes: false }
]

export interface DetectionFigures {
  name: string
  /** Medians in ms. Cold: engine start plus the first analysis, in a fresh page. */
  coldMs: number
  coldStartMs: number
  firstRunMs: number
  warmMs: number
  /** The fastest warm run: on a shared machine, the one least slowed by other work. */
  warmBestMs: number
  /** Decoding the JPEG into pixels, once per image (not part of warm). */
  decodeMs: number
  /** What the last run found: faces or objects. */
  found: number
  labels: string[]
}

function ensureBuild() {
  if (fs.existsSync(path.join(BUILD_DIR, "engines/objects/centernet.bin")) && fs.existsSync(path.join(BUILD_DIR, "tabs/engines.html"))) return
  console.error("Faces and objects bench: building the extension first…")
  execFileSync("npm", ["run", "build:extension"], { cwd: root, stdio: ["ignore", 2, 2] })
}

interface PageRun {
  state: string
  error: string
  loadMs: number | null
  decodeMs: number | null
  durationMs: number
  result: string
}

async function waitForRun(page: Page, after: number): Promise<PageRun> {
  await page.waitForFunction(
    (count: number) => Number(document.querySelector('[data-testid="detect-status"]')?.getAttribute("data-finished")) > count,
    { timeout: TIMEOUT_MS },
    after
  )
  // No named inner functions here: tsx would wrap them in a __name helper the page lacks.
  const run = await page.evaluate(() => {
    const status = document.querySelector('[data-testid="detect-status"]')!
    const loadMs = document.querySelector('[data-testid="detect-load-ms"]')?.getAttribute("data-value") ?? ""
    const decodeMs = document.querySelector('[data-testid="detect-decode-ms"]')?.getAttribute("data-value") ?? ""
    return {
      state: status.getAttribute("data-state") ?? "",
      error: status.querySelector('[role="alert"]')?.textContent ?? "",
      loadMs: loadMs === "" ? null : Number(loadMs),
      decodeMs: decodeMs === "" ? null : Number(decodeMs),
      durationMs: Number(document.querySelector('[data-testid="detect-duration-ms"]')?.getAttribute("data-value")),
      result: document.querySelector('[data-testid="detect-result"]')?.getAttribute("data-result") ?? ""
    }
  })
  if (run.state !== "done") throw new Error(`The engine check page reported: ${run.error || run.state}`)
  return run
}

function labelsOf(result: string): string[] {
  const outcome = JSON.parse(result) as { kind: "faces"; result: { faces: unknown[] } } | { kind: "objects"; result: { objects: { label: string }[] } }
  return outcome.kind === "faces" ? outcome.result.faces.map(() => "face") : outcome.result.objects.map((object) => object.label)
}

async function measureCase(browser: Browser, pageUrl: string, { name, kind, attributes }: (typeof CASES)[number]): Promise<DetectionFigures> {
  const colds: number[] = []
  const starts: number[] = []
  const firsts: number[] = []
  const decodes: number[] = []
  let page: Page | null = null
  for (let run = 0; run < COLD_RUNS; run++) {
    await page?.close()
    page = await browser.newPage()
    await page.goto(pageUrl, { waitUntil: "load" })
    await page.click(`input[name="detect-kind"][value="${kind}"]`)
    if (attributes) await page.click('input[name="detect-attributes"]')
    const input = await page.waitForSelector('input[data-testid="detect-file"]')
    await input!.uploadFile(SAMPLE_FILE)
    const first = await waitForRun(page, 0)
    colds.push((first.loadMs ?? 0) + first.durationMs)
    starts.push(first.loadMs ?? 0)
    firsts.push(first.durationMs)
    decodes.push(first.decodeMs ?? 0)
  }
  const warms: number[] = []
  let last: PageRun | null = null
  for (let run = 0; run < WARM_RUNS; run++) {
    await page!.click('[data-testid="detect-again"]')
    last = await waitForRun(page!, run + 1)
    warms.push(last.durationMs)
  }
  await page!.close()
  const labels = labelsOf(last!.result)
  return {
    name,
    coldMs: median(colds),
    coldStartMs: median(starts),
    firstRunMs: median(firsts),
    warmMs: median(warms),
    warmBestMs: Math.min(...warms),
    decodeMs: median(decodes),
    found: labels.length,
    labels
  }
}

export function facesObjectsLines(figures: DetectionFigures[]): string[] {
  const ms = (value: number) => `${Math.round(value)} ms`
  return figures.map(
    (figure) =>
      `sample1.jpg ${figure.name}: warm ${ms(figure.warmMs)} (median of ${WARM_RUNS}, best ${ms(figure.warmBestMs)}), cold ${ms(figure.coldMs)} ` +
      `(engine start ${ms(figure.coldStartMs)} + first run ${ms(figure.firstRunMs)}; JPEG decode ${ms(figure.decodeMs)} apart); ` +
      `found ${figure.found}${figure.labels.some((label) => label !== "face") ? ` (${figure.labels.join(", ")})` : ""}`
  )
}

export async function measureFacesObjects(): Promise<{ figures: DetectionFigures[]; lines: string[] }> {
  ensureBuild()
  const browser = await launchBrowser({ extension: true })
  try {
    const { id } = await installExtension(browser)
    const pageUrl = `chrome-extension://${id}/tabs/engines.html`
    const figures: DetectionFigures[] = []
    for (const benchCase of CASES) {
      console.error(`Faces and objects bench: ${benchCase.name}…`)
      figures.push(await measureCase(browser, pageUrl, benchCase))
    }
    return { figures, lines: [`Faces and objects (load average ${os.loadavg()[0]!.toFixed(1)} at the end):`, ...facesObjectsLines(figures)] }
  } finally {
    await browser.close()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  measureFacesObjects().then(
    ({ lines }) => console.log(lines.join("\n")),
    (error: unknown) => {
      console.error("The faces and objects bench failed:", error instanceof Error ? error.message : error)
      process.exitCode = 1
    }
  )
}
