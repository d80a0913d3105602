/** The Google buttons' look, and what they say without Google's popup: the sign-in's button and the dashboard's link button. */
import { getApiBaseUrl } from "~site-session/site-client"

export const GOOGLE_BUTTON_CLASS =
  "inline-flex w-full items-center justify-center gap-2 rounded-lg border border-gray-300 bg-white px-5 py-2.5 text-sm font-semibold shadow-sm"

export const GOOGLE_SETUP_FAILED_NOTE = "Google sign-in could not be loaded. Please reload the page to try again."

/**
 * Where this page cannot open Google's popup (the extension's pages): a button that continues on the web site,
 * whose sign-in from the extension (?source=extension) opens the extension's session as e-mail sign-in does.
 */
export function ContinueOnSite({ label, path, note, noteId }: { label: string; path: string; note: string; noteId: string }) {
  return (
    <div>
      <button
        type="button"
        aria-describedby={noteId}
        className={`${GOOGLE_BUTTON_CLASS} text-brand-secondary hover:bg-gray-50`}
        onClick={() => window.open(`${getApiBaseUrl()}${path}`, "_blank", "noopener")}
      >
        {label}
      </button>
      <p id={noteId} className="mt-2 text-center text-xs text-gray-500">
        {note}
      </p>
    </div>
  )
}
