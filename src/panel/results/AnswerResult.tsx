import { SOURCE_LABELS } from "../ai/engine-choice"
import type { AnalysisOutcome } from "../analyses"

/** The vision model's answer: to the preset Scene question (with the labels found on this computer) or to the user's own. */
export function AnswerResult({ outcome }: { outcome: Extract<AnalysisOutcome, { kind: "scene" | "ask" }> }) {
  return (
    <section aria-label={outcome.kind === "scene" ? "Scene" : "Answer"} className="space-y-2">
      {outcome.kind === "ask" && <p className="text-xs font-medium text-gray-600">You asked: {outcome.question}</p>}
      <p data-testid="vqa-answer" className="whitespace-pre-wrap rounded-lg border border-gray-200 bg-white p-3 text-sm">
        {outcome.answer}
      </p>
      {outcome.kind === "scene" && outcome.labels.length > 0 && <p className="text-xs text-gray-600">Objects detected on this computer: {outcome.labels.join(", ")}</p>}
      <p className="text-xs text-gray-500" data-testid="answer-source" data-source={outcome.source}>
        {outcome.stopped ? "Stopped · " : ""}
        {answerSourceText(outcome)}
      </p>
    </section>
  )
}

/** Where an answer came from, in words: the device, or our service with the model it passed the question to. */
export function answerSourceText({ source, model }: { source: "device" | "service"; model: string }): string {
  return source === "device" ? SOURCE_LABELS.device : `${SOURCE_LABELS.service} (${model})`
}
