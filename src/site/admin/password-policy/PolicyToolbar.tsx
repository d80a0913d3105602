/**
 * The bar that stays on top while the admin scrolls the rules: save or discard the draft, export, import and reset,
 * the unsaved-changes line and the notice of the last action.
 */
import { useRef } from "react"

import { Download, RotateCcw, Upload } from "~ui/icons"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"

import type { PolicyEditorState } from "./use-policy-editor"

export function PolicyToolbar({ editor }: { editor: PolicyEditorState }) {
  const importInput = useRef<HTMLInputElement>(null)
  const { busy, unsaved, notice } = editor
  return (
    <div className="sticky top-16 z-10 space-y-3 bg-gray-50/95 py-2 backdrop-blur">
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonStyles.primary} disabled={!unsaved || busy} onClick={editor.saveDraft}>
          Save changes
        </button>
        <button type="button" className={buttonStyles.secondary} disabled={!unsaved || busy} onClick={editor.discard}>
          Discard changes
        </button>
        <span className="flex-1" />
        <button type="button" className={buttonStyles.secondary} onClick={editor.exportPolicy} disabled={busy}>
          <Download aria-hidden="true" className="h-4 w-4" /> Export
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={() => importInput.current?.click()} disabled={busy}>
          <Upload aria-hidden="true" className="h-4 w-4" /> Import
        </button>
        <input
          ref={importInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="policy-import"
          onChange={(event) => {
            const file = event.target.files?.[0]
            event.target.value = ""
            if (file) void editor.importPolicy(file)
          }}
        />
        <button type="button" className={buttonStyles.secondary} onClick={editor.reset} disabled={busy}>
          <RotateCcw aria-hidden="true" className="h-4 w-4" /> Reset to default
        </button>
      </div>
      {unsaved && <p className="text-xs text-amber-700">You have unsaved changes.</p>}
      {notice && (
        <Notice tone={notice.tone} details={notice.details} data-testid="policy-notice" spacing="roomy">
          <p>{notice.text}</p>
        </Notice>
      )}
    </div>
  )
}
