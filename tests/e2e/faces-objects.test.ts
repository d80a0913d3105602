import fs from "node:fs"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"

import type { Browser, Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { DEFAULT_FACES_KIND, type DetectionKind } from "~engine-check/DetectionCheck"
import type { FacesResult } from "~analysis/faces"
import type { ObjectsResult } from "~analysis/objects"
import { DEFAULT_MIN_SCORES } from "~core/analysis/detections"

import { groupPhotos } from "../../bench/photos/group-photos"
import { eventually, EXTENSION_DIR, installExtension, launchBrowser, screenshot, watchPageErrors, type LoadedExtension } from "./browser"

const require = createRequire(import.meta.url)
const FACE_API_DEMO = path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "demo")
const SAMPLE_FILE = path.join(FACE_API_DEMO, "sample1.jpg")
/** Three women on a couch, one in profile, two looking down (bench/photos/hand-counts.json). */
const LOOKING_DOWN_FILE = path.join(FACE_API_DEMO, "sample2.jpg")

type Outcome = { kind: "faces"; result: FacesResult } | { kind: "objects"; result: ObjectsResult }

interface Run {
  state: string
  error: string
  count: number
  loadMs: number | null
  outcome: Outcome | null
}

const finishedCount = (page: Page) => page.$eval('[data-testid="detect-status"]', (element) => Number(element.getAttribute("data-finished")))

/**
 * Picks the analysis (and the attributes box for faces) on the engine check page, and waits for the page to
 * show the choice: the attributes box is enabled for faces only, and a click on it while still disabled is lost.
 */
async function choose(page: Page, kind: DetectionKind, attributes = false) {
  await page.click(`input[name="detect-kind"][value="${kind}"]`)
  const box = await page.waitForSelector(`input[name="detect-attributes"]${kind === "objects" ? ":disabled" : ":enabled"}`)
  if (kind === "objects") return
  const checked = await box!.evaluate((element) => (element as HTMLInputElement).checked)
  if (checked !== attributes) {
    await box!.click()
    await page.waitForSelector(`input[name="detect-attributes"]${attributes ? ":checked" : ":not(:checked)"}`)
  }
}

/** Starts an analysis with `start` and returns its outcome once the page reports it finished. */
async function runOnPage(page: Page, start: () => Promise<unknown>): Promise<Run> {
  const before = await finishedCount(page)
  await start()
  await page.waitForFunction(
    (count: number) => Number(document.querySelector('[data-testid="detect-status"]')?.getAttribute("data-finished")) > count,
    { timeout: 90_000 },
    before
  )
  const run = await page.evaluate(() => {
    const status = document.querySelector('[data-testid="detect-status"]')!
    const value = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute("data-value") ?? ""
    return {
      state: status.getAttribute("data-state") ?? "",
      error: status.querySelector('[role="alert"]')?.textContent ?? "",
      count: Number(value("detect-count")),
      loadMs: value("detect-load-ms") === "" ? null : Number(value("detect-load-ms")),
      result: document.querySelector('[data-testid="detect-result"]')?.getAttribute("data-result") ?? ""
    }
  })
  return { ...run, outcome: run.result ? (JSON.parse(run.result) as Outcome) : null }
}

const checkSample = (page: Page) => runOnPage(page, () => page.click("button ::-p-text(Check with sample photo)"))

function facesOf(run: Run): FacesResult {
  expect(run.error).toBe("")
  expect(run.state).toBe("done")
  if (run.outcome?.kind !== "faces") throw new Error(`Expected a faces result, got ${JSON.stringify(run.outcome)}`)
  return run.outcome.result
}

function expectBoxesInside(boxes: { x: number; y: number; width: number; height: number }[], width: number, height: number) {
  for (const box of boxes) {
    expect(box.width).toBeGreaterThan(0)
    expect(box.height).toBeGreaterThan(0)
    expect(box.x + box.width).toBeLessThanOrEqual(width)
    expect(box.y + box.height).toBeLessThanOrEqual(height)
  }
}

describe("local faces and objects in the built extension", () => {
  let browser: Browser
  let extension: LoadedExtension

  beforeAll(async () => {
    browser = await launchBrowser({ extension: true })
    extension = await installExtension(browser)
  })

  afterAll(async () => {
    await browser?.close()
  })

  it("ships the single-threaded tfjs wasm, the face-api and CenterNet models and the sample photo", () => {
    const list = (folder: string) => fs.readdirSync(path.join(EXTENSION_DIR, "engines", folder)).sort()
    expect(list("tfjs")).toEqual(["tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm.wasm"])
    expect(list("faces")).toEqual([
      "age_gender_model-weights_manifest.json",
      "age_gender_model.bin",
      "face_expression_model-weights_manifest.json",
      "face_expression_model.bin",
      "ssd_mobilenetv1_model-weights_manifest.json",
      "ssd_mobilenetv1_model.bin"
    ])
    expect(list("objects")).toEqual(["centernet.bin", "centernet.json"])
    expect(list("samples")).toEqual(["sample1.jpg"])
  })

  it("finds the three faces of sample1, with attributes when asked, and a person among its objects, all from inside the extension", async () => {
    const page = await browser.newPage()
    const errors = watchPageErrors(page)
    const requests: string[] = []
    page.on("request", (request) => requests.push(request.url()))
    await page.goto(`chrome-extension://${extension.id}/tabs/engines.html`, { waitUntil: "load" })
    await page.waitForSelector('[data-testid="detect-status"][data-state="idle"]')
    // tfjs, face-api and Human are not part of the page's first load.
    const scripts = requests.filter((url) => url.endsWith(".js"))
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter((url) => !/\/tabs\/engines\.[0-9a-f]+\.js$/.test(url))).toEqual([])

    // SSD MobileNet v1 (the one face detector) on a picked file: the engine starts, only the models it needs load.
    await choose(page, "faces-ssd")
    const input = await page.waitForSelector('input[data-testid="detect-file"]')
    const ssd = await runOnPage(page, () => input!.uploadFile(SAMPLE_FILE))
    const ssdFaces = facesOf(ssd)
    expect(ssdFaces.detector).toBe("ssd")
    expect([ssdFaces.imageWidth, ssdFaces.imageHeight]).toEqual([1920, 1280])
    expect(ssdFaces.faces).toHaveLength(3)
    expect(ssd.count).toBe(3)
    expect(ssd.loadMs).toBeGreaterThan(0)
    expectBoxesInside(
      ssdFaces.faces.map((face) => face.box),
      1920,
      1280
    )
    for (const face of ssdFaces.faces) expect(face.age).toBeUndefined()
    // Numbered left to right across the photo.
    const lefts = ssdFaces.faces.map((face) => face.box.x)
    expect([...lefts].sort((a, b) => a - b)).toEqual(lefts)
    const base = `chrome-extension://${extension.id}/`
    expect(requests).toContain(`${base}engines/faces/ssd_mobilenetv1_model.bin`)
    expect(requests.some((url) => url.includes("age_gender") || url.includes("tiny_face"))).toBe(false)
    expect(requests.some((url) => /engines\/tfjs\/tfjs-backend-wasm(-simd)?\.wasm$/.test(url))).toBe(true)

    // Run again: the engine is reused, the faces are the same.
    const again = await runOnPage(page, () => page.click('[data-testid="detect-again"]'))
    expect(again.loadMs).toBeNull()
    expect(facesOf(again).faces).toEqual(ssdFaces.faces)

    // Attributes: age, gender and expression for every face; their models load now.
    await choose(page, "faces-ssd", true)
    const withAttributes = facesOf(await checkSample(page))
    expect(withAttributes.faces).toHaveLength(3)
    for (const face of withAttributes.faces) {
      expect(face.age).toBeGreaterThan(5)
      expect(face.age).toBeLessThan(90)
      expect(["male", "female"]).toContain(face.gender)
      expect(face.genderScore).toBeGreaterThan(0.5)
      expect(["neutral", "happy", "sad", "angry", "fearful", "disgusted", "surprised"]).toContain(face.expression)
      expect(face.expressionScore).toBeGreaterThan(0)
    }
    expect(requests).toContain(`${base}engines/faces/age_gender_model.bin`)
    expect(requests).toContain(`${base}engines/faces/face_expression_model.bin`)
    await screenshot(page, "faces-engine-check")

    // Objects: Human's CenterNet on the same tfjs runtime.
    await choose(page, "objects")
    const objects = await checkSample(page)
    expect(objects.error).toBe("")
    if (objects.outcome?.kind !== "objects") throw new Error(`Expected an objects result, got ${JSON.stringify(objects.outcome)}`)
    const persons = objects.outcome.result.objects.filter((object) => object.label === "person")
    expect(persons.length).toBeGreaterThanOrEqual(3)
    for (const object of objects.outcome.result.objects) {
      expect(object.score).toBeGreaterThanOrEqual(object.label === "person" ? DEFAULT_MIN_SCORES.person : DEFAULT_MIN_SCORES.other)
    }
    expectBoxesInside(
      objects.outcome.result.objects.map((object) => object.box),
      1920,
      1280
    )
    expect(requests).toContain(`${base}engines/objects/centernet.bin`)
    await screenshot(page, "objects-engine-check")

    // Everything came from the extension: its files, and blob: URLs of the images it shows.
    expect(requests.filter((url) => !url.startsWith(base) && !url.startsWith(`blob:${base}`))).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it("frees the models when the engines are unloaded and loads them again on the next analysis", async () => {
    const page = await browser.newPage()
    const errors = watchPageErrors(page)
    await page.goto(`chrome-extension://${extension.id}/tabs/engines.html`, { waitUntil: "load" })
    await page.waitForSelector('[data-testid="detect-status"][data-state="idle"]')
    const tensors = () => page.$eval('[data-testid="detect-memory"]', (element) => Number(element.getAttribute("data-tensors")))

    await choose(page, "faces-ssd", true)
    expect(facesOf(await checkSample(page)).faces).toHaveLength(3)
    await choose(page, "objects")
    expect((await checkSample(page)).state).toBe("done")
    // The page reads the engines' memory after each analysis has finished, asynchronously.
    const loaded = await eventually(tensors, (count) => expect(count).toBeGreaterThan(100))

    await page.click('[data-testid="detect-unload"]')
    await page.waitForFunction((before: number) => Number(document.querySelector('[data-testid="detect-memory"]')?.getAttribute("data-tensors")) < before, {}, loaded)
    // What stays are Human's six shared constants (five scalars and an RGB weight vector, 32 bytes).
    expect(await tensors()).toBeLessThanOrEqual(6)
    expect(await page.$eval('[data-testid="detect-memory"]', (element) => Number(element.getAttribute("data-bytes")))).toBeLessThanOrEqual(32)

    await choose(page, "faces-ssd")
    const again = await runOnPage(page, () => page.click('[data-testid="detect-again"]'))
    expect(again.loadMs).toBeGreaterThan(0)
    expect(facesOf(again).faces).toHaveLength(3)
    await choose(page, "objects")
    const objectsAgain = await runOnPage(page, () => page.click('[data-testid="detect-again"]'))
    expect(objectsAgain.error).toBe("")
    expect(objectsAgain.loadMs).toBeGreaterThan(0)
    if (objectsAgain.outcome?.kind !== "objects") throw new Error(`Expected an objects result, got ${JSON.stringify(objectsAgain.outcome)}`)
    expect(objectsAgain.outcome.result.objects.some((object) => object.label === "person")).toBe(true)
    expect(errors).toEqual([])
    await page.close()
  })

  it("counts the three faces of a group photo where two look down", async () => {
    const page = await browser.newPage()
    const errors = watchPageErrors(page)
    await page.goto(`chrome-extension://${extension.id}/tabs/engines.html`, { waitUntil: "load" })
    // The page starts on the analysis the side panel runs by default.
    expect(DEFAULT_FACES_KIND).toBe("faces-ssd")
    await page.waitForSelector(`input[name="detect-kind"][value="${DEFAULT_FACES_KIND}"]:checked`)
    const input = await page.waitForSelector('input[data-testid="detect-file"]')
    const found = facesOf(await runOnPage(page, () => input!.uploadFile(LOOKING_DOWN_FILE)))
    expect(found.detector).toBe("ssd")
    expect(found.faces).toHaveLength(3)
    // One face in each third of the photo, left to right: the three women, not one of them twice.
    const thirds = found.faces.map((face) => Math.floor(((face.box.x + face.box.width / 2) / found.imageWidth) * 3))
    expect(thirds).toEqual([0, 1, 2])
    expect(errors).toEqual([])
    await page.close()
  })

  it("counts the people of a crowd by looking again in tiles, and a photo of four close up without them", { timeout: 120_000 }, async () => {
    const [crowd] = await groupPhotos(["crowd-24"])
    if (!crowd) throw new Error("group-photos.json holds no crowd-24.")
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "iqa-crowd-"))
    const crowdFile = path.join(folder, "crowd-24.jpg")
    fs.writeFileSync(crowdFile, crowd.jpeg)
    const page = await browser.newPage()
    const errors = watchPageErrors(page)
    try {
      await page.goto(`chrome-extension://${extension.id}/tabs/engines.html`, { waitUntil: "load" })
      await choose(page, "objects")
      const input = await page.waitForSelector('input[data-testid="detect-file"]')
      const people = async (file: string) => {
        const run = await runOnPage(page, () => input!.uploadFile(file))
        if (run.outcome?.kind !== "objects") throw new Error(`Expected an objects result, got ${run.error || JSON.stringify(run.outcome)}`)
        return run.outcome.result.objects.filter((object) => object.label === "person").length
      }
      // 88 people a person counts; one pass at the engine's input size finds none of them (bench/faces-objects.ts).
      expect(await people(crowdFile)).toBeGreaterThanOrEqual(Math.ceil(crowd.objects.person! * 0.8))
      // Four women arm in arm, each taller than half the photo: still four.
      expect(await people(path.join(FACE_API_DEMO, "sample4.jpg"))).toBe(4)
      expect(errors).toEqual([])
    } finally {
      await page.close()
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })

  it("says in words when an image cannot be read", async () => {
    const page = await browser.newPage()
    await page.goto(`chrome-extension://${extension.id}/tabs/engines.html`, { waitUntil: "load" })
    const input = await page.waitForSelector('input[data-testid="detect-file"]')
    const broken = path.join(EXTENSION_DIR, "manifest.json")
    const run = await runOnPage(page, () => input!.uploadFile(broken))
    expect(run.state).toBe("error")
    expect(run.error).toContain("The image could not be read.")
    await page.close()
  })
})
