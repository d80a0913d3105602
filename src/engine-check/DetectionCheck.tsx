// The faces and objects part of the engine check page (tabs/engines.html): runs either engine on
// face-api's sample photo (shipped in engines/samples/) or a picked file, and shows the count,
// the boxes over the image, start-up and run times. The end-to-end test and the bench drive it.
import { useCallback, useEffect, useState } from "react"

import { BoxOverlay, type LabelledBox } from "~ui/BoxOverlay"
import { buttonStyles } from "~ui/styles"

import { CheckStatus, type CheckPhase } from "./CheckStatus"
import { ChooseImageButton } from "./ChooseImageButton"

import type { AnalysisProgress, ImageSource } from "~analysis/engine"
import { DEFAULT_FACES_OPTIONS, type FacesOptions } from "~core/analysis/detections"

import { createFacesEngine, type FacesEngine, type FacesResult } from "~analysis/faces"
import { createObjectsEngine, type ObjectsEngine, type ObjectsResult } from "~analysis/objects"
import { countOf, percent } from "~core/format"

import { describeFace } from "~analysis/result-format"
import { decodeImage, startTfjs } from "~analysis/tfjs"

export const SAMPLE_PHOTO_PATH = "/engines/samples/sample1.jpg"

export type DetectionKind = "faces-ssd" | "objects"

/** The faces analysis the side panel runs unless Settings say otherwise. */
export const DEFAULT_FACES_KIND: DetectionKind = `faces-${DEFAULT_FACES_OPTIONS.detector}`

const KINDS: { value: DetectionKind; label: string }[] = [
  { value: "faces-ssd", label: "Faces (SSD)" },
  { value: "objects", label: "Objects (COCO)" }
]

/** One engine of each kind for the page's lifetime: each starts on first use and is reused. */
let facesEngine: FacesEngine | null = null
let objectsEngine: ObjectsEngine | null = null

type Outcome = { kind: "faces"; result: FacesResult } | { kind: "objects"; result: ObjectsResult }

type Done = { kind: "done"; outcome: Outcome; loadMs: number | null; durationMs: number; decodeMs: number | null; source: string; imageUrl: string }

type CheckState = Exclude<CheckPhase, { kind: "done" }> | Done

function boxesOf(outcome: Outcome): LabelledBox[] {
  if (outcome.kind === "faces") return outcome.result.faces.map((face, index) => ({ ...face.box, label: `${index + 1}` }))
  return outcome.result.objects.map((object) => ({ ...object.box, label: `${object.label} ${percent(object.score)}` }))
}

function linesOf(outcome: Outcome): string[] {
  if (outcome.kind === "faces") return outcome.result.faces.map((face, index) => `Face ${index + 1}: ${describeFace(face, { scores: true })}`)
  return outcome.result.objects.map((object) => `${object.label}: ${percent(object.score)} at ${object.box.x}, ${object.box.y} (${object.box.width} × ${object.box.height})`)
}

/** How many faces or objects were found, as a number and in words. */
function foundOf(outcome: Outcome): { count: number; text: string } {
  const count = outcome.kind === "faces" ? outcome.result.faces.length : outcome.result.objects.length
  return { count, text: outcome.kind === "faces" ? countOf(count, "face", "faces") : countOf(count, "object", "objects") }
}

/** What one analysis found: figures, the image with its boxes, and a line per face or object. */
function DetectionResult({ done }: { done: Done }) {
  const found = foundOf(done.outcome)
  return (
    <>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-gray-500">Image</dt>
        <dd>
          {done.source} ({done.outcome.result.imageWidth} × {done.outcome.result.imageHeight})
        </dd>
        <dt className="text-gray-500">Found</dt>
        <dd data-testid="detect-count" data-value={found.count}>
          {found.text}
        </dd>
        <dt className="text-gray-500">Image decoding</dt>
        <dd data-testid="detect-decode-ms" data-value={done.decodeMs ?? ""}>
          {done.decodeMs === null ? "already decoded" : `${done.decodeMs} ms`}
        </dd>
        <dt className="text-gray-500">Engine start</dt>
        <dd data-testid="detect-load-ms" data-value={done.loadMs ?? ""}>
          {done.loadMs === null ? "already running" : `${done.loadMs} ms`}
        </dd>
        <dt className="text-gray-500">Analysis</dt>
        <dd data-testid="detect-duration-ms" data-value={done.durationMs}>
          {done.durationMs} ms
        </dd>
      </dl>
      <div className="relative inline-block max-w-full">
        <img src={done.imageUrl} alt={`Analysed image: ${done.source}`} className="block max-h-[28rem] max-w-full" />
        <BoxOverlay
          boxes={boxesOf(done.outcome)}
          width={done.outcome.result.imageWidth}
          height={done.outcome.result.imageHeight}
          tone={done.outcome.kind === "faces" ? "face" : "object"}
          labelStyle="tag"
        />
      </div>
      <ul data-testid="detect-result" data-result={JSON.stringify(done.outcome)} className="list-inside list-disc space-y-1">
        {linesOf(done.outcome).map((line, index) => (
          <li key={index}>{line}</li>
        ))}
      </ul>
    </>
  )
}

/** Engine set-ups already loaded in this page, so a start-up time is shown only when there was one. */
const prepared = new Set<string>()

/** What tfjs holds now, once it has started (the engines start it): tensors and bytes. */
async function tfjsMemory(): Promise<{ tensors: number; bytes: number }> {
  const { numTensors, numBytes } = (await startTfjs()).memory()
  return { tensors: numTensors, bytes: numBytes }
}

/** Frees both engines' models; the next analysis loads them again. */
async function unloadEngines() {
  await Promise.all([facesEngine?.dispose(), objectsEngine?.dispose()])
  prepared.clear()
}

/** Runs `load` unless this set-up was loaded before in this page; returns how long it took, or null. */
async function timedLoad(setup: string, load: () => Promise<void>): Promise<number | null> {
  if (prepared.has(setup)) return null
  const started = performance.now()
  await load()
  prepared.add(setup)
  return Math.round(performance.now() - started)
}

async function analyse(kind: DetectionKind, attributes: boolean, image: ImageSource, onProgress: (progress: AnalysisProgress) => void) {
  if (kind === "objects") {
    const engine = (objectsEngine ??= createObjectsEngine())
    const loadMs = await timedLoad(kind, () => engine.load(onProgress))
    onProgress({ stage: "Finding objects" })
    const begun = performance.now()
    const outcome: Outcome = { kind: "objects", result: await engine.run(image) }
    return { outcome, loadMs, durationMs: Math.round(performance.now() - begun) }
  }
  const engine = (facesEngine ??= createFacesEngine())
  const options: FacesOptions = { detector: "ssd", attributes }
  const loadMs = await timedLoad(`${kind}${attributes ? "+attributes" : ""}`, () => engine.load(onProgress, options))
  onProgress({ stage: "Finding faces" })
  const begun = performance.now()
  const outcome: Outcome = { kind: "faces", result: await engine.run(image, options) }
  return { outcome, loadMs, durationMs: Math.round(performance.now() - begun) }
}

export function DetectionCheck() {
  const [kind, setKind] = useState<DetectionKind>(DEFAULT_FACES_KIND)
  const [attributes, setAttributes] = useState(false)
  const [state, setState] = useState<CheckState>({ kind: "idle" })
  /** The last image, decoded once so that "Run again" times the engine alone. */
  const [lastImage, setLastImage] = useState<{ pixels: ImageBitmap | HTMLCanvasElement; file: Blob; source: string } | null>(null)
  /** Finished analyses (results and errors), so a caller can tell one run's outcome from the next. */
  const [finished, setFinished] = useState(0)
  const [memory, setMemory] = useState<{ tensors: number; bytes: number } | null>(null)
  const [unloading, setUnloading] = useState(false)

  useEffect(() => {
    if (finished > 0 && (facesEngine || objectsEngine)) void tfjsMemory().then(setMemory, () => setMemory(null))
  }, [finished])

  const unload = useCallback(async () => {
    setUnloading(true)
    try {
      await unloadEngines()
      setMemory(await tfjsMemory())
    } finally {
      setUnloading(false)
    }
  }, [])

  const imageUrl = state.kind === "done" ? state.imageUrl : null
  useEffect(() => () => {
    if (imageUrl) URL.revokeObjectURL(imageUrl)
  }, [imageUrl])

  const analyseImage = useCallback(
    async (pixels: ImageBitmap | HTMLCanvasElement, file: Blob, source: string, decodeMs: number | null) => {
      setState({ kind: "busy", progress: { stage: "Starting" } })
      try {
        const done = await analyse(kind, attributes, pixels, (progress) => setState({ kind: "busy", progress }))
        setState({ kind: "done", ...done, decodeMs, source, imageUrl: URL.createObjectURL(file) })
      } catch (error) {
        setState({ kind: "error", message: error instanceof Error ? error.message : String(error) })
      }
      setFinished((count) => count + 1)
    },
    [kind, attributes]
  )

  const run = useCallback(
    async (file: Blob, source: string) => {
      setState({ kind: "busy", progress: { stage: "Reading the image" } })
      const started = performance.now()
      let pixels: ImageBitmap | HTMLCanvasElement
      try {
        pixels = (await decodeImage(file)).pixels
      } catch (error) {
        setState({ kind: "error", message: error instanceof Error ? error.message : String(error) })
        setFinished((count) => count + 1)
        return
      }
      setLastImage((previous) => {
        if (previous?.pixels instanceof ImageBitmap) previous.pixels.close()
        return { pixels, file, source }
      })
      await analyseImage(pixels, file, source, Math.round(performance.now() - started))
    },
    [analyseImage]
  )

  const checkSample = useCallback(async () => {
    try {
      const response = await fetch(SAMPLE_PHOTO_PATH)
      if (!response.ok) throw new Error(`HTTP ${response.status}`)
      await run(await response.blob(), "sample photo (three faces)")
    } catch (error) {
      setState({ kind: "error", message: `The sample photo could not be read (${error instanceof Error ? error.message : String(error)}).` })
      setFinished((count) => count + 1)
    }
  }, [run])

  const busy = state.kind === "busy" || unloading

  return (
    <section className="space-y-3 rounded-xl border border-gray-200 p-5" aria-labelledby="detect-heading">
      <h2 id="detect-heading" className="text-lg font-semibold">
        Faces and objects
      </h2>
      <fieldset className="flex flex-wrap gap-x-5 gap-y-2 text-sm" disabled={busy}>
        <legend className="sr-only">Analysis</legend>
        {KINDS.map((option) => (
          <label key={option.value} className="inline-flex items-center gap-2">
            <input type="radio" name="detect-kind" value={option.value} checked={kind === option.value} onChange={() => setKind(option.value)} />
            {option.label}
          </label>
        ))}
        <label className={"inline-flex items-center gap-2" + (kind === "objects" ? " opacity-50" : "")}>
          <input
            type="checkbox"
            name="detect-attributes"
            checked={attributes}
            disabled={kind === "objects"}
            onChange={(event) => setAttributes(event.currentTarget.checked)}
          />
          Age, gender and expression
        </label>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className={buttonStyles.primary} disabled={busy} onClick={() => void checkSample()}>
          Check with sample photo
        </button>
        <ChooseImageButton testId="detect-file" disabled={busy} onFile={(file) => void run(file, file.name)} />
        <button
          type="button"
          data-testid="detect-again"
          className={buttonStyles.ghost}
          disabled={busy || !lastImage}
          onClick={() => lastImage && void analyseImage(lastImage.pixels, lastImage.file, lastImage.source, null)}>
          Run again
        </button>
        <button type="button" data-testid="detect-unload" className={buttonStyles.ghost} disabled={busy || memory === null} onClick={() => void unload()}>
          Unload engines
        </button>
      </div>

      {memory && (
        <p data-testid="detect-memory" data-tensors={memory.tensors} data-bytes={memory.bytes} className="text-sm text-gray-600">
          Engine memory: {memory.tensors} tensors, {(memory.bytes / 1_000_000).toFixed(1)} MB
        </p>
      )}
      <CheckStatus testId="detect-status" phase={state} finished={finished}>
        {state.kind === "done" && <DetectionResult done={state} />}
      </CheckStatus>
    </section>
  )
}
