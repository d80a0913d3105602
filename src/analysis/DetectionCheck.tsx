// The faces and objects part of the engine check page (tabs/engines.html): runs either engine on
// face-api's sample photo (shipped in engines/samples/) or a picked file, and shows the count,
// the boxes over the image, start-up and run times. The end-to-end test and the bench drive it.
import { useCallback, useEffect, useState } from "react"

import { buttonStyles } from "~ui/styles"

import { CheckStatus, type CheckPhase } from "./CheckStatus"

import type { AnalysisProgress, Box, ImageSource } from "./engine"
import { createFacesEngine, type DetectedFace, type FacesEngine, type FacesOptions, type FacesResult } from "./faces"
import { createObjectsEngine, type ObjectsEngine, type ObjectsResult } from "./objects"
import { decodeImage, startTfjs } from "./tfjs"

export const SAMPLE_PHOTO_PATH = "/engines/samples/sample1.jpg"

export type DetectionKind = "faces-tiny" | "faces-ssd" | "objects"

const KINDS: { value: DetectionKind; label: string }[] = [
  { value: "faces-tiny", label: "Faces, fast (Tiny)" },
  { value: "faces-ssd", label: "Faces, accurate (SSD)" },
  { value: "objects", label: "Objects (COCO)" }
]

/** One engine of each kind for the page's lifetime: each starts on first use and is reused. */
let facesEngine: FacesEngine | null = null
let objectsEngine: ObjectsEngine | null = null

type Outcome = { kind: "faces"; result: FacesResult } | { kind: "objects"; result: ObjectsResult }

type CheckState =
  | Exclude<CheckPhase, { kind: "done" }>
  | { kind: "done"; outcome: Outcome; loadMs: number | null; durationMs: number; decodeMs: number | null; source: string; imageUrl: string }

interface Mark {
  box: Box
  label: string
}

const percent = (score: number) => `${Math.round(score * 100)} %`

export function describeFace(face: DetectedFace, index: number): string {
  const parts = [`Face ${index + 1}: ${percent(face.score)}`]
  if (face.age !== undefined) parts.push(`about ${face.age} years`)
  if (face.gender) parts.push(`${face.gender}${face.genderScore !== undefined ? ` (${percent(face.genderScore)})` : ""}`)
  if (face.expression) parts.push(`${face.expression}${face.expressionScore !== undefined ? ` (${percent(face.expressionScore)})` : ""}`)
  return parts.join(", ")
}

function marksOf(outcome: Outcome): Mark[] {
  if (outcome.kind === "faces") return outcome.result.faces.map((face, index) => ({ box: face.box, label: `${index + 1}` }))
  return outcome.result.objects.map((object) => ({ box: object.box, label: `${object.label} ${percent(object.score)}` }))
}

function linesOf(outcome: Outcome): string[] {
  if (outcome.kind === "faces") return outcome.result.faces.map(describeFace)
  return outcome.result.objects.map((object) => `${object.label}: ${percent(object.score)} at ${object.box.x}, ${object.box.y} (${object.box.width} × ${object.box.height})`)
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
  const options: FacesOptions = { detector: kind === "faces-ssd" ? "ssd" : "tiny", attributes }
  const loadMs = await timedLoad(`${kind}${attributes ? "+attributes" : ""}`, () => engine.load(onProgress, options))
  onProgress({ stage: "Finding faces" })
  const begun = performance.now()
  const outcome: Outcome = { kind: "faces", result: await engine.run(image, options) }
  return { outcome, loadMs, durationMs: Math.round(performance.now() - begun) }
}

export function DetectionCheck() {
  const [kind, setKind] = useState<DetectionKind>("faces-tiny")
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
  const count = state.kind === "done" ? (state.outcome.kind === "faces" ? state.outcome.result.faces.length : state.outcome.result.objects.length) : 0
  const noun = state.kind === "done" && state.outcome.kind === "objects" ? "object" : "face"

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
        <label className={buttonStyles.secondary + (busy ? " pointer-events-none opacity-50" : " cursor-pointer")}>
          Choose an image…
          <input
            type="file"
            accept="image/*"
            className="sr-only"
            data-testid="detect-file"
            disabled={busy}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              event.currentTarget.value = ""
              if (file) void run(file, file.name)
            }}
          />
        </label>
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
        {state.kind === "done" && (
          <>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
              <dt className="text-gray-500">Image</dt>
              <dd>
                {state.source} ({state.outcome.result.imageWidth} × {state.outcome.result.imageHeight})
              </dd>
              <dt className="text-gray-500">Found</dt>
              <dd data-testid="detect-count" data-value={count}>
                {count} {noun}
                {count === 1 ? "" : "s"}
              </dd>
              <dt className="text-gray-500">Image decoding</dt>
              <dd data-testid="detect-decode-ms" data-value={state.decodeMs ?? ""}>
                {state.decodeMs === null ? "already decoded" : `${state.decodeMs} ms`}
              </dd>
              <dt className="text-gray-500">Engine start</dt>
              <dd data-testid="detect-load-ms" data-value={state.loadMs ?? ""}>
                {state.loadMs === null ? "already running" : `${state.loadMs} ms`}
              </dd>
              <dt className="text-gray-500">Analysis</dt>
              <dd data-testid="detect-duration-ms" data-value={state.durationMs}>
                {state.durationMs} ms
              </dd>
            </dl>
            <div className="relative inline-block max-w-full">
              <img src={state.imageUrl} alt={`Analysed image: ${state.source}`} className="block max-h-[28rem] max-w-full" />
              {marksOf(state.outcome).map((mark, index) => (
                <div
                  key={index}
                  aria-hidden="true"
                  className="absolute border-2 border-brand-primary"
                  style={{
                    left: `${(mark.box.x / state.outcome.result.imageWidth) * 100}%`,
                    top: `${(mark.box.y / state.outcome.result.imageHeight) * 100}%`,
                    width: `${(mark.box.width / state.outcome.result.imageWidth) * 100}%`,
                    height: `${(mark.box.height / state.outcome.result.imageHeight) * 100}%`
                  }}>
                  <span className="absolute -top-5 left-0 whitespace-nowrap rounded bg-brand-primary px-1 text-xs text-white">{mark.label}</span>
                </div>
              ))}
            </div>
            <ul data-testid="detect-result" data-result={JSON.stringify(state.outcome)} className="list-inside list-disc space-y-1">
              {linesOf(state.outcome).map((line, index) => (
                <li key={index}>{line}</li>
              ))}
            </ul>
          </>
        )}
      </CheckStatus>
    </section>
  )
}
