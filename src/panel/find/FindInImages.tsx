/** The *Find in images* box above the image list: the query, how far reading the page's images has come, Stop. */
import { countOf } from "~core/format"

import type { ImageReader } from "./use-image-reader"

export type FindProgress = Pick<ImageReader, "mode" | "current" | "read" | "failed" | "total" | "start" | "stop">

const inputClass =
  "w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm placeholder:text-gray-500 focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"
const smallButton = "shrink-0 rounded-md border border-gray-300 bg-white px-2.5 py-1 text-xs font-semibold text-brand-secondary hover:bg-gray-50 focus-ring"

function statusText({ mode, current, read, failed, total }: FindProgress): string {
  const unreadable = failed ? ` (${failed} could not be read)` : ""
  if (mode === "idle") return "Reads this page's images on this computer (text, objects, faces) so you can search them. Nothing is sent."
  if (mode === "stopped") return `${current ? "Stopping…" : "Stopped."} Read ${read} of ${countOf(total, "image", "images")}${unreadable}.`
  return `Read ${read} of ${countOf(total, "image", "images")}${unreadable}`
}

export function FindInImages({ query, onQueryChange, progress }: { query: string; onQueryChange: (query: string) => void; progress: FindProgress }) {
  const { mode, read, total } = progress
  const reading = mode === "reading" && read < total
  return (
    <section aria-labelledby="find-in-images-label" className="space-y-2 rounded-lg border border-gray-200 bg-white p-3">
      <label id="find-in-images-label" htmlFor="find-in-images" className="block text-sm font-semibold">
        Find in images
      </label>
      <input
        id="find-in-images"
        type="search"
        value={query}
        autoComplete="off"
        spellCheck={false}
        placeholder="Words, objects or “person”"
        aria-describedby="find-in-images-status"
        className={inputClass}
        onChange={(event) => {
          onQueryChange(event.target.value)
          // Typing is asking: the images are read from the first letter on (unless the user stopped it).
          if (mode === "idle" && event.target.value.trim()) progress.start()
        }}
      />
      <div className="flex items-center justify-between gap-3">
        <p id="find-in-images-status" data-testid="find-progress" className="text-xs text-gray-600">
          {statusText(progress)}
        </p>
        {mode === "idle" && (
          <button type="button" className={smallButton} onClick={progress.start}>
            Read images
          </button>
        )}
        {reading && (
          <button type="button" className={smallButton} onClick={progress.stop}>
            Stop
          </button>
        )}
        {mode === "stopped" && read < total && (
          <button type="button" className={smallButton} onClick={progress.start}>
            Continue
          </button>
        )}
      </div>
      {reading && <progress className="block h-1 w-full accent-brand-primary" value={read} max={total} aria-label="Images read" />}
    </section>
  )
}
