import { percent } from "~core/format"

/** What long work is doing, in words, and how far it is (0 to 1) when that is known. */
export interface Progress {
  stage: string
  fraction?: number
}

/** Long work in words, with a bar: how far when known, a pulse when not. */
export function ProgressLine({ progress }: { progress: Progress }) {
  const done = progress.fraction === undefined ? null : percent(progress.fraction)
  return (
    <div role="status" aria-live="polite" className="space-y-1 rounded-lg bg-blue-50 p-3 text-sm text-brand-secondary">
      <p>
        {progress.stage}
        {done !== null && ` ${done}`}
      </p>
      <div className="h-1.5 overflow-hidden rounded bg-blue-100">
        {done === null ? (
          <div className="h-full w-1/3 animate-pulse rounded bg-brand-primary" />
        ) : (
          <div className="h-full rounded bg-brand-primary transition-all" style={{ width: done }} />
        )}
      </div>
    </div>
  )
}
