import { useCallback, useEffect, useRef, useState } from "react"

import type { AnalysisProgress } from "~analysis/engine"

import { cachedResult, resultKey, type AnalysisOutcome } from "./analyses"
import { analyseAndRecord } from "./record-analysis"
import type { AnalysisKind, PanelSettings } from "./settings/settings"
import type { FocusedImage } from "./images/use-focused-image"
import { VqaRequestError } from "./chat/vqa-client"

export type AnalysisState =
  | { status: "idle" }
  | { status: "running"; progress: AnalysisProgress }
  | { status: "done"; outcome: AnalysisOutcome }
  | { status: "error"; message: string; signedOut: boolean }

export interface AnalysisOptions extends Pick<FocusedImage, "image" | "autoRun"> {
  settings: PanelSettings
  onUsageChanged: () => void
}

/**
 * The analysis shown for one image: which one is chosen and where it stands. A finished result of the same image,
 * analysis and options is shown from the cache; Ask waits for its question; only the latest run updates the view.
 */
export function useAnalysis({ image, autoRun, settings, onUsageChanged }: AnalysisOptions) {
  const [kind, setKind] = useState<AnalysisKind>(autoRun ?? "text")
  const [state, setState] = useState<AnalysisState>(() => {
    const cached = cachedResult(resultKey({ kind: autoRun ?? "text", image, settings }))
    return cached ? { status: "done", outcome: cached } : { status: "idle" }
  })
  const latestRun = useRef(0)
  const autoRan = useRef(false)

  const start = useCallback(
    (next: AnalysisKind, question?: string) => {
      setKind(next)
      const cached = cachedResult(resultKey({ kind: next, image, settings }))
      if (cached) {
        setState({ status: "done", outcome: cached })
        return
      }
      if (next === "ask" && question === undefined) {
        setState({ status: "idle" })
        return
      }
      const run = ++latestRun.current
      const isLatest = () => latestRun.current === run
      setState({ status: "running", progress: { stage: "Preparing the image…" } })
      analyseAndRecord(
        {
          kind: next,
          image: { url: image.url, tabId: image.tabId, frameId: image.frameId, pageUrl: image.pageUrl },
          settings,
          question,
          onProgress: (progress) => {
            if (isLatest()) setState({ status: "running", progress })
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
          setState({ status: "error", message, signedOut: error instanceof VqaRequestError && error.signedOut })
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

  return { kind, state, start }
}
