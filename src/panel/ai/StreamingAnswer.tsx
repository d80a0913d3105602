/** An answer of the device's model as it streams in, with Stop; and the one-click way to our service after a failure. */
export function StreamingAnswer({ answerSoFar, onStop }: { answerSoFar: string; onStop: () => void }) {
  return (
    <section aria-label="Answer" aria-busy="true" className="space-y-2">
      <p data-testid="streaming-answer" aria-live="polite" className="min-h-10 whitespace-pre-wrap rounded-lg border border-gray-200 bg-white p-3 text-sm">
        {answerSoFar}
        <span aria-hidden="true" className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse bg-gray-400 align-middle" />
      </p>
      <StopAnswering onStop={onStop} />
    </section>
  )
}

/** "Answering on this device…" with Stop, under an answer streaming in (Ask, Scene, Chat). */
export function StopAnswering({ onStop, as: Row = "div" }: { onStop: () => void; as?: "div" | "li" }) {
  return (
    <Row className="flex items-center justify-between gap-2 text-xs text-gray-500">
      <span role="status">Answering on this device…</span>
      <button type="button" onClick={onStop} className="rounded-md border border-gray-300 bg-white px-3 py-1 font-semibold text-gray-800 hover:bg-gray-50 focus-ring">
        Stop
      </button>
    </Row>
  )
}

export const ASK_SERVICE_LABEL = "Ask Image Query AI's service instead"

/** Offered under *Automatic* when the device's model failed: nothing goes to our service without this click. */
export function AskServiceButton({ onClick, label = ASK_SERVICE_LABEL }: { onClick: () => void; label?: string }) {
  return (
    <button type="button" onClick={onClick} className="rounded-md border border-red-300 bg-white px-3 py-1 text-xs font-semibold text-red-800 hover:bg-red-50 focus-ring">
      {label}
    </button>
  )
}
