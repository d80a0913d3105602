/**
 * What the side panel says about an image the user brings (a capture, a paste or a drop) above whichever tab is
 * shown: the drop target while dragging, the capture under way, and why an image was refused, until dismissed.
 */
import type { AreaCaptureStatus } from "./images/use-area-capture"

export function DropOverlay() {
  return (
    <div className="pointer-events-none fixed inset-2 z-20 flex items-center justify-center rounded-xl border-2 border-dashed border-blue-500 bg-blue-50/90 p-6 text-center text-sm font-semibold text-blue-800">
      Drop an image to analyse it on this device
    </div>
  )
}

export interface PanelNoticesProps {
  capture: { status: AreaCaptureStatus; wholeView: () => void; cancel: () => void; dismiss: () => void }
  pasted: { refusal: string | null; dismiss: () => void }
}

export function PanelNotices({ capture, pasted }: PanelNoticesProps) {
  return (
    <>
      {capture.status.kind === "selecting" && (
        <div role="status" data-testid="area-capture-status" className="mb-3 flex items-start justify-between gap-2 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          <p>Drag on the page to capture an area · Esc to cancel</p>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <button type="button" onClick={capture.wholeView} className="font-semibold text-blue-700 hover:underline focus-ring">
              Capture the whole view
            </button>
            <button type="button" onClick={capture.cancel} className="font-semibold text-blue-700 hover:underline focus-ring">
              Cancel
            </button>
          </div>
        </div>
      )}
      {capture.status.kind === "refused" && <Refusal message={capture.status.message} onDismiss={capture.dismiss} testId="area-capture-refusal" />}
      {pasted.refusal && <Refusal message={pasted.refusal} onDismiss={pasted.dismiss} />}
    </>
  )
}

function Refusal({ message, onDismiss, testId }: { message: string; onDismiss: () => void; testId?: string }) {
  return (
    <div role="alert" data-testid={testId} className="mb-3 flex items-start justify-between gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      <p>{message}</p>
      <button type="button" onClick={onDismiss} className="font-semibold text-blue-700 hover:underline focus-ring">
        Dismiss
      </button>
    </div>
  )
}
