// The engine check page (tabs/engines.html): an internal check that the local analysis engines start and work on
// this computer (for support: "open this page and tell us what it says"), also driven by the end-to-end tests and the
// bench. Not linked from the product yet. Its UI lives in this folder rather than beside src/tabs/engines.tsx: Plasmo
// makes a page of every file directly in src/tabs/ (a component or a test there would become a page of its own), so
// that file stays the thin entry that mounts EnginesPage.
import { useCallback, useEffect, useRef, useState } from "react"

import { CheckStatus, type CheckPhase } from "./CheckStatus"
import { ChooseImageButton } from "./ChooseImageButton"
import { DetectionCheck } from "./DetectionCheck"
import type { ImageSource } from "~analysis/engine"
import { OCR_SAMPLE_LINES, readsEveryLine, sampleTextImageDataUrl } from "./ocr-sample"
import { createOcrEngine, type OcrEngine, type OcrResult } from "~analysis/ocr"
import { percent } from "~core/format"
import { PRODUCT_NAME } from "~core/company"
import { Logo } from "~ui/Logo"
import { buttonStyles } from "~ui/styles"

const PAGE_TITLE = `${PRODUCT_NAME} — engine check`

/** One engine for the page's lifetime: it starts on first use and is reused. */
let ocrEngine: OcrEngine | null = null
const getOcrEngine = () => (ocrEngine ??= createOcrEngine())

type CheckState =
  | Exclude<CheckPhase, { kind: "done" }>
  | { kind: "done"; result: OcrResult; loadMs: number | null; source: string; sampleRead: boolean | null }

/** The sample as an image the engine takes. */
async function sampleImage(): Promise<Blob> {
  return (await fetch(sampleTextImageDataUrl(OCR_SAMPLE_LINES))).blob()
}

export function EnginesPage() {
  const [state, setState] = useState<CheckState>({ kind: "idle" })
  const [lastImage, setLastImage] = useState<{ image: ImageSource; source: string; isSample: boolean } | null>(null)
  const loaded = useRef(false)
  /** Finished analyses (results and errors), so a caller can tell one run's outcome from the next. */
  const [finished, setFinished] = useState(0)

  useEffect(() => {
    document.title = PAGE_TITLE
  }, [])

  const analyse = useCallback(async (image: ImageSource, source: string, isSample: boolean) => {
    setLastImage({ image, source, isSample })
    const engine = getOcrEngine()
    setState({ kind: "busy", progress: { stage: "Starting" } })
    try {
      let loadMs: number | null = null
      if (!loaded.current) {
        const started = performance.now()
        await engine.load((progress) => setState({ kind: "busy", progress }))
        loadMs = Math.round(performance.now() - started)
        loaded.current = true
      }
      setState({ kind: "busy", progress: { stage: "Recognising text" } })
      const result = await engine.run(image)
      const sampleRead = isSample ? readsEveryLine(result.text) : null
      setState({ kind: "done", result, loadMs, source, sampleRead })
    } catch (error) {
      loaded.current = false
      setState({ kind: "error", message: error instanceof Error ? error.message : String(error) })
    }
    setFinished((count) => count + 1)
  }, [])

  const busy = state.kind === "busy"

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-8 text-gray-900">
      <Logo />
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold text-brand-secondary">Engine check</h1>
        <p className="text-sm text-gray-600">
          Checks that local analysis works on this computer. Images are analysed inside the browser and are not sent anywhere.
        </p>
      </header>

      <section className="space-y-3 rounded-xl border border-gray-200 p-5" aria-labelledby="ocr-heading">
        <h2 id="ocr-heading" className="text-lg font-semibold">
          Text recognition (OCR)
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={buttonStyles.primary} disabled={busy} onClick={() => void sampleImage().then((image) => analyse(image, "sample text", true))}>
            Check with sample text
          </button>
          <ChooseImageButton testId="ocr-file" disabled={busy} onFile={(file) => void analyse(file, file.name, false)} />
          <button
            type="button"
            className={buttonStyles.ghost}
            disabled={busy || !lastImage}
            onClick={() => lastImage && void analyse(lastImage.image, lastImage.source, lastImage.isSample)}>
            Run again
          </button>
        </div>

        <CheckStatus testId="ocr-status" phase={state} finished={finished}>
          {state.kind === "done" && (
            <>
              {state.sampleRead !== null && (
                <p className={state.sampleRead ? "font-medium text-emerald-700" : "font-medium text-red-700"}>
                  {state.sampleRead ? "Local text recognition works on this computer." : "The sample text was not read correctly."}
                </p>
              )}
              <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
                <dt className="text-gray-500">Image</dt>
                <dd>{state.source}</dd>
                <dt className="text-gray-500">Engine start</dt>
                <dd data-testid="ocr-load-ms" data-value={state.loadMs ?? ""}>
                  {state.loadMs === null ? "already running" : `${state.loadMs} ms`}
                </dd>
                <dt className="text-gray-500">Recognition</dt>
                <dd data-testid="ocr-duration-ms" data-value={state.result.durationMs}>
                  {state.result.durationMs} ms
                </dd>
                <dt className="text-gray-500">Confidence</dt>
                <dd data-testid="ocr-confidence">{percent(state.result.confidence)}</dd>
                <dt className="text-gray-500">Words</dt>
                <dd data-testid="ocr-word-count">{state.result.words.length}</dd>
              </dl>
              <pre data-testid="ocr-text" className="whitespace-pre-wrap rounded-lg bg-gray-50 p-3 font-mono text-sm">
                {state.result.text || "(no text found)"}
              </pre>
            </>
          )}
        </CheckStatus>
      </section>

      <DetectionCheck />
    </main>
  )
}
