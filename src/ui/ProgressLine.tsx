import type { AnalysisProgress } from "~analysis/engine"

/** Long work in words, with a bar: how far when known, a pulse when not. */
export function ProgressLine({ progress }: { progress: AnalysisProgress }) {
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
