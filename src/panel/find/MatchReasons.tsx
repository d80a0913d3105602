/** Why an image matched the search (its text, objects or faces, matched words marked), and *Show on page*. */
import { useState } from "react"

import type { MatchReason, Segment } from "./image-search"

const REASON_NAMES: Record<MatchReason["kind"], string> = { text: "Text", objects: "Objects", faces: "Faces" }

/** Segments as text: marked ones in <mark>, none of it ever read as HTML. */
function Marked({ segments }: { segments: readonly Segment[] }) {
  return segments.map((segment, index) =>
    segment.marked ? (
      <mark key={index} className="rounded-sm bg-yellow-200 px-0.5 text-inherit">
        {segment.text}
      </mark>
    ) : (
      <span key={index}>{segment.text}</span>
    )
  )
}

export function MatchReasons({ reasons, onShowOnPage }: { reasons: readonly MatchReason[]; onShowOnPage?: () => Promise<boolean> }) {
  const [missing, setMissing] = useState(false)
  return (
    <div className="space-y-1 border-t border-gray-100 px-2 py-1.5 text-xs text-gray-700" data-testid="match-reasons">
      {reasons.map((reason) => (
        <div key={reason.kind} className="break-words">
          <span className="font-semibold text-gray-500">{REASON_NAMES[reason.kind]}: </span>
          {reason.kind === "text" ? (
            reason.lines.map((line, index) => (
              <p key={index} className="break-words">
                <Marked segments={line} />
              </p>
            ))
          ) : (
            <Marked segments={reason.segments} />
          )}
        </div>
      ))}
      {onShowOnPage && (
        <button
          type="button"
          className="rounded font-medium text-blue-700 hover:underline focus-ring"
          onClick={() => void onShowOnPage().then((shown) => setMissing(!shown))}
        >
          Show on page
        </button>
      )}
      {missing && <p role="status">This image is no longer on the page. Press Rescan to update the list.</p>}
    </div>
  )
}
