// The status area of the engine-check page's sections (text, and faces and objects): not run,
// starting with progress, failed, or the section's own result.
import type { ReactNode } from "react"

import type { AnalysisProgress } from "~analysis/engine"
import { percent } from "~core/format"

export type CheckPhase = { kind: "idle" } | { kind: "busy"; progress: AnalysisProgress } | { kind: "error"; message: string } | { kind: "done" }

export function CheckStatus({ testId, phase, finished, children }: { testId: string; phase: CheckPhase; finished: number; children?: ReactNode }) {
  return (
    <div data-testid={testId} data-state={phase.kind} data-finished={finished} aria-live="polite" className="space-y-3 text-sm">
      {phase.kind === "idle" && <p className="text-gray-600">Not run yet.</p>}
      {phase.kind === "busy" && (
        <p>
          {phase.progress.stage}
          {phase.progress.fraction !== undefined && ` (${percent(phase.progress.fraction)})`}…
        </p>
      )}
      {phase.kind === "error" && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-700">
          {phase.message}
        </p>
      )}
      {phase.kind === "done" && children}
    </div>
  )
}
