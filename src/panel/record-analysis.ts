import { describe, runAnalysis, summarise, type AnalysisOutcome, type AnalysisRequest } from "./analyses"
import { addToHistory } from "./chat/history"

export interface RecordOptions {
  /** The page the image was found on, kept with the history entry. */
  pageUrl?: string
  /** Called when the analysis used one of the plan's AI requests (our service answered). */
  onUsageChanged: () => void
}

/** Runs one analysis (or answers it from the cache), records the result in the history and reports a used AI request. */
export async function analyseAndRecord(request: AnalysisRequest, { pageUrl, onUsageChanged }: RecordOptions): Promise<AnalysisOutcome> {
  const outcome = await runAnalysis(request)
  // Only our service counts in the plan's quota: an answer on this device leaves the usage as it was.
  if ((outcome.kind === "scene" || outcome.kind === "ask") && outcome.source === "service") onUsageChanged()
  void addToHistory({ kind: request.kind, imageUrl: request.image.url, pageUrl, question: request.question, summary: summarise(outcome), detail: describe(outcome) })
  return outcome
}
