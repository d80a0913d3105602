import { useCallback, useEffect, useRef, useState } from "react"

import type { AnalysisProgress } from "~analysis/engine"

import { cachedResult, resultKey, type AnalysisOutcome } from "./analyses"
import { analyseAndRecord } from "./record-analysis"
import type { AnalysisKind, PanelSettings } from "./settings/settings"
import type { FocusedImage } from "./images/use-focused-image"
import { VqaRequestError } from "./chat/vqa-client"
import { DeviceEngineError } from "./ai/device-errors"
import type { AnswerSource } from "./ai/engine-choice"

export type AnalysisState =
  | { status: "idle" }
  /** `answerSoFar`: a question's answer as it streams in (the device's model). */
  | { status: "running"; progress: AnalysisProgress; answerSoFar?: string }
  | { status: "done"; outcome: AnalysisOutcome }
  /** `offerService`: the device's model failed under *Automatic*: our service can be asked instead, in one click. */
  | { status: "error"; message: string; signedOut: boolean; offerService?: boolean }

export interface AnalysisOptions extends Pick<FocusedImage, "image" | "autoRun"> {
  settings: PanelSettings
  onUsageChanged: () => void
}

/**
 * The analysis shown for one image: which one is chosen and where it stands. A finished result of the same image,
 * analysis and options is shown from the cache; Ask waits for its question; choosing another analysis stops the one
 * running, and only the latest run updates the view.
 */
export function useAnalysis({ image, autoRun, settings, onUsageChanged }: AnalysisOptions) {
  const [kind, setKind] = useState<AnalysisKind>(autoRun ?? "text")
  const [state, setState] = useState<AnalysisState>(() => {
    const cached = cachedResult(resultKey({ kind: autoRun ?? "text", image, settings }))
    return cached ? { status: "done", outcome: cached } : { status: "idle" }
  })
  const latestRun = useRef(0)
  const autoRan = useRef(false)
  const stopper = useRef<AbortController | null>(null)
  const lastQuestion = useRef<string | undefined>(undefined)

  const start = useCallback(
    (next: AnalysisKind, question?: string, only?: AnswerSource) => {
      setKind(next)
      // Whatever runs now is stopped and its late result ignored: the person chose another analysis.
      const run = ++latestRun.current
      const isLatest = () => latestRun.current === run
      stopper.current?.abort()
      stopper.current = null
      const cached = cachedResult(resultKey({ kind: next, image, settings }))
      if (cached) {
        setState({ status: "done", outcome: cached })
        return
      }
      if (next === "ask" && question === undefined) {
        setState({ status: "idle" })
        return
      }
      lastQuestion.current = question
      const controller = (stopper.current = new AbortController())
      setState({ status: "running", progress: { stage: "Preparing the image…" } })
      analyseAndRecord(
        {
          kind: next,
          image: { url: image.url, tabId: image.tabId, frameId: image.frameId, pageUrl: image.pageUrl },
          settings,
          question,
          only,
          signal: controller.signal,
          onProgress: (progress) => {
            if (isLatest()) setState({ status: "running", progress })
          },
          onPartial: (answerSoFar) => {
            if (isLatest()) setState({ status: "running", progress: { stage: "Answering on this device…" }, answerSoFar })
          }
        },
        { pageUrl: image.pageUrl, onUsageChanged }
      ).then(
        (outcome) => {
          if (isLatest()) setState({ status: "done", outcome })
        },
        (error: unknown) => {
          if (!isLatest()) return
          const message = error instanceof Error && error.message ? error.message : "The analysis failed. Try again."
          setState({ status: "error", message, signedOut: error instanceof VqaRequestError && error.signedOut, offerService: error instanceof DeviceEngineError && error.offerService })
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

  // Another image, or the panel closing, stops an answer still streaming.
  useEffect(() => () => stopper.current?.abort(), [image])

  return {
    kind,
    state,
    start,
    /** Ends a streamed answer; what came so far is kept as the answer. */
    stop: () => stopper.current?.abort(),
    /** The same analysis again, answered by our service (after the device's model failed). */
    askService: () => start(kind, lastQuestion.current, "service")
  }
}
