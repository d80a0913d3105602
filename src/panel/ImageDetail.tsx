import { useCallback, useEffect, useRef, useState, type FormEvent } from "react"

import { withTimeout, type AnalysisProgress } from "~analysis/engine"

import { describeFace } from "~analysis/result-format"
import { BoxOverlay, type BoxTone, type LabelledBox } from "~ui/BoxOverlay"

import { cachedResult, describe, resultKey, runAnalysis, summarise, type AnalysisOutcome } from "./analyses"
import { addToHistory } from "./history"
import type { PanelImage } from "./tab-images"
import { ANALYSIS_KINDS, ANALYSIS_LABELS, type AnalysisKind, type PanelSettings } from "./settings"
import { SIGNED_OUT_CODE, VqaRequestError } from "./vqa-client"

export type AnalysisState =
  | { status: "idle" }
  | { status: "running"; progress: AnalysisProgress }
  | { status: "done"; outcome: AnalysisOutcome }
  | { status: "error"; message: string; signedOut: boolean }

function boxesOf(outcome: AnalysisOutcome | null): { boxes: LabelledBox[]; tone: BoxTone } {
  if (outcome?.kind === "text") {
    return { tone: "text", boxes: outcome.ocr.words.map(({ bbox }) => ({ x: bbox.x0, y: bbox.y0, width: bbox.x1 - bbox.x0, height: bbox.y1 - bbox.y0 })) }
  }
  if (outcome?.kind === "faces") return { tone: "face", boxes: outcome.faces.faces.map((face, index) => ({ ...face.box, label: String(index + 1) })) }
  if (outcome?.kind === "objects") return { tone: "object", boxes: outcome.objects.objects.map((object) => ({ ...object.box, label: object.label })) }
  return { tone: "text", boxes: [] }
}

/**
 * The Clipboard API can wait on a permission decision that never comes while the panel lacks focus;
 * the selection route works in extension pages whenever the extension holds clipboardWrite.
 */
const CLIPBOARD_TIMEOUT_MS = 1500

function copyBySelection(text: string): boolean {
  const area = document.createElement("textarea")
  area.value = text
  area.setAttribute("readonly", "")
  area.style.position = "fixed"
  area.style.opacity = "0"
  document.body.append(area)
  area.select()
  const copied = document.execCommand("copy")
  area.remove()
  return copied
}

async function copyText(text: string): Promise<boolean> {
  if (copyBySelection(text)) return true
  try {
    await withTimeout(navigator.clipboard.writeText(text), CLIPBOARD_TIMEOUT_MS, "The clipboard did not answer")
    return true
  } catch {
    return false
  }
}

function ProgressLine({ progress }: { progress: AnalysisProgress }) {
  const percent = progress.fraction === undefined ? null : Math.round(progress.fraction * 100)
  return (
    <div role="status" aria-live="polite" className="space-y-1 rounded-lg bg-blue-50 p-3 text-sm text-brand-secondary">
      <p>
        {progress.stage}
        {percent !== null && ` ${percent}%`}
      </p>
      <div className="h-1.5 overflow-hidden rounded bg-blue-100">
        {percent === null ? (
          <div className="h-full w-1/3 animate-pulse rounded bg-brand-primary" />
        ) : (
          <div className="h-full rounded bg-brand-primary transition-all" style={{ width: `${percent}%` }} />
        )}
      </div>
    </div>
  )
}

function ResultView({ outcome }: { outcome: AnalysisOutcome }) {
  const [copied, setCopied] = useState<boolean | null>(null)
  if (outcome.kind === "text") {
    const { ocr } = outcome
    const text = ocr.text.trim()
    return (
      <section aria-label="Text found" className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <p className="text-xs text-gray-600">
            {text ? `${ocr.words.length} ${ocr.words.length === 1 ? "word" : "words"} · confidence ${Math.round(ocr.confidence * 100)}%` : "No text found in this image."}
          </p>
          {text && (
            <button
              type="button"
              className="rounded-md border border-gray-300 px-2 py-1 text-xs font-medium hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary"
              onClick={() => void copyText(text).then(setCopied)}
            >
              {copied === true ? "Copied" : copied === false ? "Copy failed" : "Copy text"}
            </button>
          )}
        </div>
        {text && (
          <pre data-testid="ocr-text" className="max-h-64 overflow-auto whitespace-pre-wrap rounded-lg border border-gray-200 bg-white p-3 font-sans text-sm">
            {text}
          </pre>
        )}
      </section>
    )
  }
  if (outcome.kind === "faces") {
    const { faces } = outcome.faces
    return (
      <section aria-label="Faces found" className="space-y-2">
        <p className="text-sm font-medium" data-testid="faces-count">
          {faces.length === 0 ? "No faces found in this image." : faces.length === 1 ? "1 face found" : `${faces.length} faces found`}
        </p>
        {faces.length > 0 && (
          <ol className="space-y-1 rounded-lg border border-gray-200 bg-white p-3 text-sm" aria-label="Faces">
            {faces.map((face, index) => (
              <li key={index}>
                <span className="font-medium">Face {index + 1}:</span> {describeFace(face)}
              </li>
            ))}
          </ol>
        )}
        <p className="text-xs text-gray-500">Detector: {outcome.faces.detector === "ssd" ? "accurate (SSD MobileNet)" : "fast (Tiny Face Detector)"} · change it in Settings</p>
      </section>
    )
  }
  if (outcome.kind === "objects") {
    const { objects } = outcome.objects
    return (
      <section aria-label="Objects found" className="space-y-2">
        <p className="text-sm font-medium" data-testid="objects-count">
          {objects.length === 0 ? "No objects recognised in this image." : objects.length === 1 ? "1 object found" : `${objects.length} objects found`}
        </p>
        {objects.length > 0 && (
          <ul className="divide-y divide-gray-100 rounded-lg border border-gray-200 bg-white text-sm" aria-label="Objects">
            {objects.map((object, index) => (
              <li key={index} className="flex justify-between px-3 py-1.5">
                <span>{object.label}</span>
                <span className="text-gray-600">{Math.round(object.score * 100)}%</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    )
  }
  return (
    <section aria-label={outcome.kind === "scene" ? "Scene" : "Answer"} className="space-y-2">
      {outcome.kind === "ask" && <p className="text-xs font-medium text-gray-600">You asked: {outcome.question}</p>}
      <p data-testid="vqa-answer" className="whitespace-pre-wrap rounded-lg border border-gray-200 bg-white p-3 text-sm">
        {outcome.answer}
      </p>
      {outcome.kind === "scene" && outcome.labels.length > 0 && <p className="text-xs text-gray-600">Objects detected on this computer: {outcome.labels.join(", ")}</p>}
      <p className="text-xs text-gray-500">Answered by {outcome.model}</p>
    </section>
  )
}

export interface ImageDetailProps {
  image: PanelImage & { tabId?: number; pageUrl?: string }
  settings: PanelSettings
  /** Runs once when the image arrives from the on-image button or the menu. */
  autoRun: AnalysisKind | null
  onBack: () => void
  onUsageChanged: () => void
  onSignIn: () => void
}

export function ImageDetail({ image, settings, autoRun, onBack, onUsageChanged, onSignIn }: ImageDetailProps) {
  const [kind, setKind] = useState<AnalysisKind>(autoRun ?? "text")
  const [state, setState] = useState<AnalysisState>(() => {
    const cached = cachedResult(resultKey({ kind: autoRun ?? "text", image, settings }))
    return cached ? { status: "done", outcome: cached } : { status: "idle" }
  })
  const [question, setQuestion] = useState("")
  const [natural, setNatural] = useState({ width: image.width, height: image.height })
  const generation = useRef(0)
  const autoRan = useRef(false)

  const start = useCallback(
    (next: AnalysisKind, asked?: string) => {
      setKind(next)
      const key = resultKey({ kind: next, image, settings })
      const cached = cachedResult(key)
      if (cached) {
        setState({ status: "done", outcome: cached })
        return
      }
      if (next === "ask" && asked === undefined) {
        setState({ status: "idle" })
        return
      }
      const run = ++generation.current
      setState({ status: "running", progress: { stage: "Preparing the image…" } })
      runAnalysis({
        kind: next,
        image: { url: image.url, tabId: image.tabId, frameId: image.frameId },
        settings,
        question: asked,
        onProgress: (progress) => {
          if (generation.current === run) setState({ status: "running", progress })
        }
      }).then(
        (outcome) => {
          if (outcome.kind === "scene" || outcome.kind === "ask") onUsageChanged()
          void addToHistory({ kind: next, imageUrl: image.url, pageUrl: image.pageUrl, summary: summarise(outcome), detail: describe(outcome), question: asked })
          if (generation.current === run) setState({ status: "done", outcome })
        },
        (error: unknown) => {
          if (generation.current !== run) return
          const signedOut = error instanceof VqaRequestError && error.code === SIGNED_OUT_CODE
          const message = error instanceof Error && error.message ? error.message : "The analysis failed. Try again."
          setState({ status: "error", message, signedOut })
        }
      )
    },
    [image, settings, onUsageChanged]
  )

  useEffect(() => {
    if (autoRun && autoRun !== "ask" && !autoRan.current) {
      autoRan.current = true
      start(autoRun)
    }
  }, [autoRun, start])

  const submitQuestion = (event: FormEvent) => {
    event.preventDefault()
    if (question.trim()) start("ask", question.trim())
  }

  const outcome = state.status === "done" ? state.outcome : null
  const { boxes, tone } = boxesOf(outcome)

  return (
    <div className="space-y-4">
      <button type="button" onClick={onBack} className="text-sm font-medium text-blue-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary">
        ← All images
      </button>
      <figure className="space-y-1">
        <div className="relative overflow-hidden rounded-lg border border-gray-200 bg-gray-100">
          <img
            src={image.url}
            alt={image.alt || "Selected image"}
            className="block h-auto w-full"
            onLoad={(event) => setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
          />
          <BoxOverlay boxes={boxes} width={natural.width} height={natural.height} tone={tone} />
        </div>
        <figcaption className="truncate text-xs text-gray-500" title={image.url}>
          {natural.width} × {natural.height} · {image.alt || image.url}
        </figcaption>
      </figure>

      <div role="group" aria-label="Analyses" className="flex flex-wrap gap-2">
        {ANALYSIS_KINDS.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={kind === option}
            disabled={state.status === "running"}
            onClick={() => start(option)}
            className={`rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary disabled:opacity-60 ${
              kind === option ? "border-blue-600 bg-blue-600 text-white" : "border-gray-300 bg-white text-brand-secondary hover:bg-gray-50"
            }`}
          >
            {ANALYSIS_LABELS[option]}
          </button>
        ))}
      </div>

      {kind === "ask" && (
        <form onSubmit={submitQuestion} className="flex gap-2">
          <label htmlFor="image-question" className="sr-only">
            Your question about this image
          </label>
          <input
            id="image-question"
            value={question}
            onChange={(event) => setQuestion(event.target.value)}
            maxLength={2000}
            placeholder="Ask something about this image"
            className="min-w-0 flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"
          />
          <button type="submit" disabled={!question.trim() || state.status === "running"} className="rounded-lg bg-blue-600 px-3 py-2 text-sm font-semibold text-white disabled:opacity-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-primary">
            Ask
          </button>
        </form>
      )}

      {state.status === "running" && <ProgressLine progress={state.progress} />}
      {state.status === "error" && (
        <div role="alert" className="space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p>{state.message}</p>
          {state.signedOut && (
            <button type="button" onClick={onSignIn} className="font-semibold text-blue-700 hover:underline">
              Sign in
            </button>
          )}
        </div>
      )}
      {outcome && <ResultView outcome={outcome} />}
    </div>
  )
}
