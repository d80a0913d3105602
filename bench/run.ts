// `npm run bench`: how fast the product starts and stops (as `npm start` runs it) and how much
// loopback traffic it serves. Figures go to stdout, progress to stderr, and all of it as JSON to
// bench/results/latest.json.
import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import { measureCapture } from "./capture"
import { measureTranslateOverlay } from "./translate-overlay"
import { measureContentScripts } from "./content-scripts"
import { measureImageButton } from "./image-button"
import { measureFacesObjects } from "./faces-objects"
import { measureFeedback } from "./feedback"
import { measureFindInImages } from "./find-in-images"
import { measurePageTranslation } from "./page-translation"
import { loadTimeLimitSeconds, measureLoad, type LoadFigures, type LoadSettings } from "./load"
import { measureLogin } from "./login"
import { measureMixedLoad } from "./mixed-load"
import { measureOcr } from "./ocr"
import { measureOcrLanguages } from "./ocr-languages"
import { measureOcrSmallPrint } from "./ocr-small-print"
import { measureOcrTessdata } from "./ocr-tessdata"
import { measurePageScan } from "./page-scan"
import { measurePublicApiVision } from "./public-api-vision"
import { measureVisionFairness } from "./vision-fairness"
import { startServer, type RunningServer } from "./server-process"
import { ensureServerBuild } from "../scripts/server-build.mjs"
import { ensureCurrentWebBuild, projectRoot } from "./web-build"
import { measureWebSize } from "./web-size"

const RESULTS_FILE = path.join(projectRoot, "bench/results/latest.json")
const LOAD_TARGETS = [
  { name: "GET /api/status", path: "/api/status" },
  { name: "GET / (index.html)", path: "/" }
]
/** Two starts (60 s limit each) and two stops (15 s each) at worst, plus slack; load time comes on top. */
/** Three synthetic pages, seven runs each, in headless Chromium. */
const PAGE_SCAN_TIME_LIMIT_SECONDS = 180
/** A page of 50 frames loaded seven times with the extension and seven without (saved pages add one load each). */
const CONTENT_SCRIPTS_TIME_LIMIT_SECONDS = 120
/** The same three page sizes for the on-image button. */
const IMAGE_BUTTON_TIME_LIMIT_SECONDS = 120
/** Fresh extension pages for cold runs, five warm runs, the bare comparison and the zip. */
const OCR_TIME_LIMIT_SECONDS = 240
/** A server start, then three languages read three times each in the side panel. */
const OCR_LANGUAGES_TIME_LIMIT_SECONDS = 180
/** Four images in four formats, each read by the server's task, the extension's engine and bare tesseract.js twice. */
const OCR_SMALL_PRINT_TIME_LIMIT_SECONDS = 300
/** Two server starts and a dozen plain packs compressed. */
const OCR_TESSDATA_TIME_LIMIT_SECONDS = 120
/** A server start and five cold visits of the landing page in headless Chromium. */
const WEB_SIZE_TIME_LIMIT_SECONDS = 120
/** Four set-ups, each three fresh extension pages (cold) and seven warm runs. */
const FACES_OBJECTS_TIME_LIMIT_SECONDS = 300
/** Six captures of a canvas read by OCR in the side panel, the first one starting the engine. */
const CAPTURE_TIME_LIMIT_SECONDS = 120
/** A server start, one OCR, six translations laid over the image. */
const TRANSLATE_OVERLAY_TIME_LIMIT_SECONDS = 120
/** The 5,000-image page loaded twice (with the panel reading, and bare), three 15 s windows each, then the search. */
const FIND_IN_IMAGES_TIME_LIMIT_SECONDS = 420
/** A start, 200 submissions with images and 50 list reads. */
const FEEDBACK_TIME_LIMIT_SECONDS = 120
/** A server start, an account with keys, then three endpoints' calls (about 150) and the bare libraries. */
const PUBLIC_API_VISION_TIME_LIMIT_SECONDS = 240
/** A server start, two accounts, 20 calls idle, the flood with 20 calls, and the largest images twice. */
const VISION_FAIRNESS_TIME_LIMIT_SECONDS = 240
/** Two set-ups (one and two instances), each with starts, 50 accounts made and the load itself. */
const MIXED_LOAD_TIME_LIMIT_SECONDS = 2 * 150
const START_STOP_TIME_LIMIT_SECONDS = 2 * 60 + 2 * 15 + 30

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got ${JSON.stringify(raw)}).`)
  return value
}

/** Starts a server, lets `whileRunning` work with it, then stops it with SIGTERM; whatever happens, it is killed. */
async function withServer<T>(dataDir: string, whileRunning: (server: RunningServer) => Promise<T>) {
  const server = await startServer(dataDir)
  try {
    const used = await whileRunning(server)
    const { shutdownMs, exitCode } = await server.stop()
    return { startMs: server.startMs, rebuiltWebSite: server.rebuiltWebSite, shutdownMs, exitCode, used }
  } finally {
    server.kill()
  }
}

type ServerRun = Awaited<ReturnType<typeof withServer>>
type TargetFigures = (typeof LOAD_TARGETS)[number] & LoadFigures

const milliseconds = (value: number) => `${Math.round(value)} ms`
const oneDecimal = (value: number) => Math.round(value * 10) / 10

function serverWarnings(label: string, run: ServerRun): string[] {
  const warnings: string[] = []
  if (run.rebuiltWebSite) warnings.push(`WARNING: the ${label} printed "Building the web site": its start figure includes a web build.`)
  if (run.exitCode !== 0) warnings.push(`WARNING: after SIGTERM the ${label} server exited with ${run.exitCode} (expected 0).`)
  return warnings
}

function loadWarnings(target: TargetFigures): string[] {
  if (target.non2xx === 0 && target.errors === 0) return []
  return [`WARNING: ${target.name} had ${target.non2xx} non-2xx responses and ${target.errors} errors (${target.timeouts} timeouts); expected 0.`]
}

async function main() {
  const load: LoadSettings = {
    durationSeconds: positiveIntegerFromEnv("BENCH_DURATION", 10),
    connections: positiveIntegerFromEnv("BENCH_CONNECTIONS", 50)
  }
  if (ensureCurrentWebBuild()) console.error("Built dist/web first, so that the timed starts do not include a build.")
  if (await ensureServerBuild()) console.error("Built dist/server first, so that the timed starts do not include a build.")

  // Sign-in costs one argon2 verification (tens of ms of CPU), so it runs with fewer connections.
  // One account: the sign-in protection lets at most rateLimitAttempts (5 by default) of its password checks run at
  // once, so the load stays below that; 2 CPUs are saturated by argon2 long before.
  const loginLoad: LoadSettings = { ...load, connections: Math.min(load.connections, 4) }
  const timeLimitSeconds =
    2 * START_STOP_TIME_LIMIT_SECONDS + LOAD_TARGETS.length * loadTimeLimitSeconds(load) + loadTimeLimitSeconds(loginLoad) + load.durationSeconds + PAGE_SCAN_TIME_LIMIT_SECONDS + CONTENT_SCRIPTS_TIME_LIMIT_SECONDS + IMAGE_BUTTON_TIME_LIMIT_SECONDS + OCR_TIME_LIMIT_SECONDS + OCR_LANGUAGES_TIME_LIMIT_SECONDS + OCR_SMALL_PRINT_TIME_LIMIT_SECONDS + OCR_TESSDATA_TIME_LIMIT_SECONDS + WEB_SIZE_TIME_LIMIT_SECONDS + FACES_OBJECTS_TIME_LIMIT_SECONDS + FEEDBACK_TIME_LIMIT_SECONDS + CAPTURE_TIME_LIMIT_SECONDS + TRANSLATE_OVERLAY_TIME_LIMIT_SECONDS + FIND_IN_IMAGES_TIME_LIMIT_SECONDS + PUBLIC_API_VISION_TIME_LIMIT_SECONDS + VISION_FAIRNESS_TIME_LIMIT_SECONDS + MIXED_LOAD_TIME_LIMIT_SECONDS + 2 * load.durationSeconds
  const watchdog = setTimeout(() => {
    console.error(`The bench did not finish within ${timeLimitSeconds} s; stopping it.`)
    process.exit(1) // server-process.ts kills any running server on exit
  }, timeLimitSeconds * 1000)
  watchdog.unref()

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-bench-data-"))
  try {
    console.error("Cold start with a new DATA_DIR…")
    const cold = await withServer(dataDir, async () => undefined)
    console.error("Warm start with the same DATA_DIR…")
    const warm = await withServer(dataDir, async (server) => {
      const figures: TargetFigures[] = []
      for (const target of LOAD_TARGETS) {
        console.error(`Loading ${target.name} for ${load.durationSeconds} s over ${load.connections} connections…`)
        figures.push({ ...target, ...(await measureLoad(server.baseUrl + target.path, load)) })
      }
      return figures
    })
    console.error(`Signing in for ${loginLoad.durationSeconds} s over ${loginLoad.connections} connections, after as long of raw argon2…`)
    const login = await measureLogin(dataDir, loginLoad)
    console.error("Submitting feedback with images, then reading the admin list…")
    const feedback = await measureFeedback(dataDir)
    const mixed = await measureMixedLoad({ durationSeconds: load.durationSeconds, connections: 20 })
    console.error("Scanning synthetic pages of 100, 1,000 and 5,000 images in headless Chromium…")
    const pageScan = await measurePageScan()
    const contentScripts = await measureContentScripts()
    console.error("Hovering images with the on-image button on the same page sizes…")
    const imageButton = await measureImageButton()
    console.error("Running OCR in the built extension, cold and warm, against bare tesseract.js…")
    const ocr = await measureOcr()
    console.error("Reading English, Hindi and Ukrainian in the side panel, with the packs from the server…")
    const ocrLanguages = await measureOcrLanguages()
    console.error("Reading small print by the server and the extension, each beside bare tesseract.js on the same bytes…")
    const ocrSmallPrint = await measureOcrSmallPrint()
    console.error("Offering a folder of plain tessdata packs: compressed on the first list, checked after a restart…")
    const ocrTessdata = await measureOcrTessdata()
    console.error("Visiting the landing page cold in headless Chromium: JavaScript downloaded and first contentful paint…")
    const webSize = await measureWebSize()
    console.error("Running faces and objects in the built extension: sample1 cold and warm, then the hand-counted photos…")
    const facesObjects = await measureFacesObjects()
    console.error("Capturing an area of a canvas from the side panel and reading it…")
    const capture = await measureCapture()
    const translateOverlay = await measureTranslateOverlay()
    console.error("Reading a page of 5,000 images for Find in images, and typing into the list with 500 read…")
    const findInImages = await measureFindInImages()
    console.error("Translating a page's signs in place, then scrolling it with the translations on and without the extension…")
    const pageTranslation = await measurePageTranslation()
    console.error("Calling /api/v1/ocr, /faces and /objects on two worker threads, then the bare libraries on the same images…")
    const publicApiVision = await measurePublicApiVision()
    console.error("Measuring what a customer of the public API gets while another account floods it…")
    const visionFairness = await measureVisionFairness()

    const cpus = os.availableParallelism()
    const warnings = [
      ...serverWarnings("cold start", cold),
      ...serverWarnings("warm start", warm),
      ...warm.used.flatMap(loadWarnings),
      ...loadWarnings({ name: "POST /api/auth/login", path: "/api/auth/login", ...login.login })
    ]
    const lines = [
      `Image Query AI bench: Node ${process.version}, ${cpus} CPUs shared by the server and the load generator, on 127.0.0.1`,
      `Cold start, new DATA_DIR (spawn to first 2xx GET /api/status): ${milliseconds(cold.startMs)}`,
      `Shutdown after the cold start (SIGTERM to exit): ${milliseconds(cold.shutdownMs)}`,
      `Warm start, reused DATA_DIR (spawn to first 2xx GET /api/status): ${milliseconds(warm.startMs)}`,
      ...warm.used.map(
        (target) =>
          `${target.name}: ${Math.round(target.requestsPerSecond)} req/s, latency p50 ${target.latencyP50Ms} ms, ` +
          `p99 ${target.latencyP99Ms} ms (${target.requests} requests in ${load.durationSeconds} s over ` +
          `${load.connections} connections; ${target.non2xx} non-2xx, ${target.errors} errors)`
      ),
      `Shutdown after the load (SIGTERM to exit): ${milliseconds(warm.shutdownMs)}`,
      `Raw argon2id verify (server's parameters, ${loginLoad.connections} in flight, in the bench process): ${Math.round(login.rawVerifiesPerSecond)} /s`,
      `POST /api/auth/login (success): ${Math.round(login.login.requestsPerSecond)} req/s, latency p50 ${login.login.latencyP50Ms} ms, ` +
        `p99 ${login.login.latencyP99Ms} ms (${login.login.requests} requests over ${loginLoad.connections} connections; ` +
        `${login.login.non2xx} non-2xx, ${login.login.errors} errors)`,
      `Login throughput / raw argon2 throughput: ${login.ratio.toFixed(2)} (near 1: the server adds little to the hash)`,
      ...feedback.lines,
      ...mixed.lines,
      ...pageScan.lines,
      ...contentScripts.lines,
      ...imageButton.lines,
      ...ocr.lines,
      ...ocrLanguages.lines,
      ...ocrSmallPrint.lines,
      ...ocrTessdata.lines,
      ...webSize.lines,
      ...facesObjects.lines,
      ...capture.lines,
      ...translateOverlay.lines,
      ...findInImages.lines,
      ...pageTranslation.lines,
      ...publicApiVision.lines,
      ...visionFairness.lines,
      ...warnings
    ]
    console.log(lines.join("\n"))

    const serverFigures = ({ startMs, shutdownMs, exitCode, rebuiltWebSite }: ServerRun) => ({
      startMs: oneDecimal(startMs),
      shutdownMs: oneDecimal(shutdownMs),
      exitCode,
      rebuiltWebSite
    })
    const results = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      cpus,
      load,
      coldStart: serverFigures(cold),
      // Its shutdown comes after the load runs.
      warmStart: serverFigures(warm),
      http: warm.used.map((target) => ({ ...target, requestsPerSecond: oneDecimal(target.requestsPerSecond) })),
      feedback: feedback.figures,
      mixedLoad: mixed.figures,
      pageScan: pageScan.figures,
      contentScripts: contentScripts.figures,
      imageButton: imageButton.figures,
      ocr: ocr.figures,
      ocrLanguages: ocrLanguages.figures,
      ocrSmallPrint: ocrSmallPrint.figures,
      ocrTessdata: ocrTessdata.figures,
      webSize: webSize.figures,
      facesObjects: facesObjects.figures,
      facesObjectsPhotos: facesObjects.photos,
      capture: capture.figures,
      translateOverlay: translateOverlay.figures,
      findInImages: findInImages.figures,
      pageTranslation: pageTranslation.figures,
      publicApiVision: publicApiVision.figures,
      visionFairness: visionFairness.figures,
      login: { ...login.login, connections: loginLoad.connections, rawVerifiesPerSecond: oneDecimal(login.rawVerifiesPerSecond), ratio: oneDecimal(login.ratio * 100) / 100 },
      warnings
    }
    await fs.mkdir(path.dirname(RESULTS_FILE), { recursive: true })
    await fs.writeFile(RESULTS_FILE, JSON.stringify(results, null, 2) + "\n")
    console.error(`Wrote ${path.relative(projectRoot, RESULTS_FILE)}`)
  } finally {
    clearTimeout(watchdog)
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error("The bench failed:", error instanceof Error ? error.message : error)
  process.exitCode = 1
})
