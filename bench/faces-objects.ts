// Local faces and objects in headless Chromium with the built extension, through the engine check
// page (tabs/engines.html).
// Speed on face-api's demo/sample1.jpg (1920 × 1280, three faces): cold — engine start (tfjs wasm
// backend, the library and its models) plus the first analysis, each in a fresh page — and warm,
// the median of several "Run again" analyses of the already decoded image, for the face detector
// (SSD; the fast Tiny one was removed, see FACE_DETECTORS in src/core/analysis/detections.ts), the
// same with age, gender and expression, and Human's CenterNet objects.
// Counts on the hand-counted photos of bench/photos/hand-counts.json: faces found against the
// faces a person counts, objects' precision and recall against
// the objects a person lists (matched by label count per photo, src/analysis/detection-score.ts),
// each with its warm time.
// Run alone with `node --import tsx bench/faces-objects.ts`, or call measureFacesObjects().
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"

import type { Browser, Page } from "puppeteer-core"

import type { DetectionKind } from "~engine-check/DetectionCheck"
import { addTallies, precisionOf, recallOf, scoreObjects, type HandCount, type Tally } from "~analysis/detection-score"
import { installExtension, launchBrowser } from "../tests/e2e/browser"
import { median, runIfMain } from "./figures"
import { groupPhotos } from "./photos/group-photos"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const BUILD_DIR = path.join(root, "build/chrome-mv3-prod")
const require = createRequire(path.join(root, "package.json"))
const SAMPLE_FILE = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "demo/sample1.jpg")
const COLD_RUNS = 3
const WARM_RUNS = 7
/** Warm runs on each hand-counted photo: fewer, as there are seven photos and three analyses. */
const PHOTO_WARM_RUNS = 3
const TIMEOUT_MS = 90_000

const CASES: { name: string; kind: DetectionKind; attributes: boolean }[] = [
  { name: "faces default (SSD)", kind: "faces-ssd", attributes: false },
  { name: "faces default + age, gender, expression", kind: "faces-ssd", attributes: true },
  { name: "objects (CenterNet)", kind: "objects", attributes: false }
]

interface HandCountedPhoto extends HandCount {
  name: string
  /** The installed npm package the photo ships in, and its path there: the photos are read where they are. */
  package: string
  path: string
  faces: number
}

export function handCountedPhotos(): HandCountedPhoto[] {
  const file = path.join(root, "bench/photos/hand-counts.json")
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { photos: HandCountedPhoto[] }).photos
}

/** The photo's file in node_modules (by folder: some packages' `exports` hide their files from require.resolve). */
export const photoFile = (photo: HandCountedPhoto) => path.join(root, "node_modules", photo.package, photo.path)

/** A photo the bench analyses and its hand counts: a hand-counted photo where it lies, or a montage written for the run. */
interface BenchPhoto extends HandCount {
  name: string
  faces: number
  file: string
}

/** The hand-counted photos, then the group montages of bench/photos/group-photos.json written into `folder`. */
async function benchPhotos(folder: string): Promise<BenchPhoto[]> {
  const montages = await groupPhotos()
  return [
    ...handCountedPhotos().map((photo) => ({ ...photo, file: photoFile(photo) })),
    ...montages.map((montage) => {
      const file = path.join(folder, `${montage.name}.jpg`)
      fs.writeFileSync(file, montage.jpeg)
      return { ...montage, file }
    })
  ]
}

/** Which analyses run on every hand-counted photo. */
const PHOTO_KINDS = [
  { key: "facesDefault", kind: "faces-ssd" },
  { key: "objects", kind: "objects" }
] as const satisfies readonly { key: string; kind: DetectionKind }[]

type PhotoKindKey = (typeof PHOTO_KINDS)[number]["key"]

export interface PhotoRun {
  /** Median of the warm runs, ms. */
  warmMs: number
  /** The fastest warm run: on a shared machine, the one least slowed by other work. */
  warmBestMs: number
  /** "face" for each face, or each object's label, from the last run. */
  labels: string[]
  tally: Tally
}

export interface PhotoFigures {
  name: string
  facesCounted: number
  objectsCounted: number
  peopleCounted: number
  runs: Record<PhotoKindKey, PhotoRun>
}

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

/** Runs one analysis on every photo in one page: the engine starts on the first, then each photo is analysed warm. */
async function measurePhotos(browser: Browser, pageUrl: string, kind: DetectionKind, photos: readonly BenchPhoto[]): Promise<PhotoRun[]> {
  const page = await browser.newPage()
  try {
    await page.goto(pageUrl, { waitUntil: "load" })
    await page.click(`input[name="detect-kind"][value="${kind}"]`)
    await page.waitForSelector(`input[name="detect-kind"][value="${kind}"]:checked`)
    const input = await page.waitForSelector('input[data-testid="detect-file"]')
    const runs: PhotoRun[] = []
    let finished = 0
    for (const photo of photos) {
      await input!.uploadFile(photo.file)
      await waitForRun(page, finished++)
      const warms: number[] = []
      let last: PageRun | null = null
      for (let run = 0; run < PHOTO_WARM_RUNS; run++) {
        await page.click('[data-testid="detect-again"]')
        last = await waitForRun(page, finished++)
        warms.push(last.durationMs)
      }
      const labels = labelsOf(last!.result)
      const hand: HandCount = kind === "objects" ? photo : { objects: { face: photo.faces } }
      runs.push({ warmMs: median(warms), warmBestMs: Math.min(...warms), labels, tally: scoreObjects(labels, hand) })
    }
    return runs
  } finally {
    await page.close()
  }
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

const ms = (value: number) => `${Math.round(value)} ms`

export function facesObjectsLines(figures: DetectionFigures[]): string[] {
  return figures.map(
    (figure) =>
      `sample1.jpg ${figure.name}: warm ${ms(figure.warmMs)} (median of ${WARM_RUNS}, best ${ms(figure.warmBestMs)}), cold ${ms(figure.coldMs)} ` +
      `(engine start ${ms(figure.coldStartMs)} + first run ${ms(figure.firstRunMs)}; JPEG decode ${ms(figure.decodeMs)} apart); ` +
      `found ${figure.found}${figure.labels.some((label) => label !== "face") ? ` (${figure.labels.join(", ")})` : ""}`
  )
}

/** "person 3, cup 1": labels with how often each was found, most frequent first. */
function labelCounts(labels: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1]).map(([label, count]) => `${label} ${count}`).join(", ") || "nothing"
}

const share = (value: number) => value.toFixed(2)

function facesLine(run: PhotoRun, counted: number): string {
  const found = run.labels.length
  return `${found}/${counted}${found > counted ? ` (${found - counted} too many)` : ""} in ${ms(run.warmMs)} (best ${ms(run.warmBestMs)})`
}

function facesTotalLine(runs: readonly PhotoRun[], photos: readonly PhotoFigures[]): string {
  const tally = addTallies(runs.map((run) => run.tally))
  const exact = runs.filter((run, index) => run.labels.length === photos[index]!.facesCounted).length
  return (
    `found ${tally.hits} of ${tally.hits + tally.missed} counted faces, ${tally.falseObjects} too many ` +
    `(precision ${share(precisionOf(tally))}, recall ${share(recallOf(tally))}), ` +
    `the exact count on ${exact} of ${runs.length} photos; ${warmSummary(runs)}`
  )
}

function warmSummary(runs: readonly PhotoRun[]): string {
  const warm = runs.map((run) => run.warmMs)
  return `warm: median ${ms(median(warm))}, slowest photo ${ms(Math.max(...warm))}, slowest best run ${ms(Math.max(...runs.map((run) => run.warmBestMs)))}`
}

/** People alone, the label a crowd is about: found against counted per photo, and precision and recall over all. */
function peopleLines(photos: readonly PhotoFigures[]): string[] {
  const tallies = photos.map((photo) => scoreObjects(photo.runs.objects.labels.filter((label) => label === "person"), { objects: { person: photo.peopleCounted } }))
  const total = addTallies(tallies)
  return [
    `People (CenterNet's "person") against the hand counts:`,
    `  ${photos.map((photo, index) => `${photo.name} ${tallies[index]!.hits + tallies[index]!.falseObjects}/${photo.peopleCounted}`).join(", ")}`,
    `  total: precision ${share(precisionOf(total))}, recall ${share(recallOf(total))} (${total.hits} right, ${total.falseObjects} too many, ${total.missed} missed)`
  ]
}

export function photoLines(photos: readonly PhotoFigures[]): string[] {
  const objectRuns = photos.map((photo) => photo.runs.objects)
  const objects = addTallies(objectRuns.map((run) => run.tally))
  return [
    `Faces on ${photos.length} hand-counted photos (found/counted, warm median of ${PHOTO_WARM_RUNS}):`,
    ...photos.map(
      (photo) => `  ${photo.name}: default (SSD) ${facesLine(photo.runs.facesDefault, photo.facesCounted)}`
    ),
    `  total: default (SSD) ${facesTotalLine(photos.map((photo) => photo.runs.facesDefault), photos)}`,
    `Objects (CenterNet) on the same photos against the hand counts (label counts per photo; warm median of ${PHOTO_WARM_RUNS}):`,
    ...photos.map(({ name, objectsCounted, runs: { objects: run } }) => {
      const { hits, falseObjects, missed } = run.tally
      return (
        `  ${name}: listed ${run.labels.length} (${labelCounts(run.labels)}) of ${objectsCounted} counted: ${hits} right, ${falseObjects} false, ${missed} missed; ` +
        `precision ${share(precisionOf(run.tally))}, recall ${share(recallOf(run.tally))}; ${ms(run.warmMs)} (best ${ms(run.warmBestMs)})`
      )
    }),
    `  total: precision ${share(precisionOf(objects))}, recall ${share(recallOf(objects))} (${objects.hits} right, ${objects.falseObjects} false, ${objects.missed} missed); ${warmSummary(objectRuns)}`,
    ...peopleLines(photos)
  ]
}

export async function measureFacesObjects(): Promise<{ figures: DetectionFigures[]; photos: PhotoFigures[]; lines: string[] }> {
  ensureBuild()
  const browser = await launchBrowser({ extension: true })
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-group-photos-"))
  try {
    const { id } = await installExtension(browser)
    const pageUrl = `chrome-extension://${id}/tabs/engines.html`
    const figures: DetectionFigures[] = []
    for (const benchCase of CASES) {
      console.error(`Faces and objects bench: ${benchCase.name}…`)
      figures.push(await measureCase(browser, pageUrl, benchCase))
    }
    const handCounted = await benchPhotos(folder)
    const runs = {} as Record<PhotoKindKey, PhotoRun[]>
    for (const { key, kind } of PHOTO_KINDS) {
      console.error(`Faces and objects bench: ${kind} on ${handCounted.length} hand-counted photos…`)
      runs[key] = await measurePhotos(browser, pageUrl, kind, handCounted)
    }
    const photos = handCounted.map((photo, index) => ({
      name: photo.name,
      facesCounted: photo.faces,
      objectsCounted: Object.values(photo.objects).reduce((sum, count) => sum + count, 0),
      peopleCounted: photo.objects.person ?? 0,
      runs: { facesDefault: runs.facesDefault[index]!, objects: runs.objects[index]! }
    }))
    return {
      figures,
      photos,
      lines: [`Faces and objects (load average ${os.loadavg()[0]!.toFixed(1)} at the end):`, ...facesObjectsLines(figures), ...photoLines(photos)]
    }
  } finally {
    await browser.close()
    fs.rmSync(folder, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, "faces and objects", measureFacesObjects)
