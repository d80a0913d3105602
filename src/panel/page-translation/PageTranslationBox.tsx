/**
 * The Images section's *Translate images on this page*: the command as a toggle button (pressed while the page shows its
 * images translated; again, the originals; again, the translations), the language, *Always translate images on this
 * site*, how far it has come with Stop or Continue, why it stopped (the quota with the Upgrade link, signed out with
 * Sign in) and what it costs.
 */
import { countOf } from "~core/format"
import { TRANSLATE_PAGE_LABEL } from "~extension/panel-handoff/page-translation-request"

import { recipient } from "../sent/SendNotice"
import { SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE } from "../chat/vqa-client"
import { LanguageSelect } from "./LanguageSelect"
import type { TabTranslationView } from "./tab-translation"

export interface PageTranslationBoxProps {
  view: TabTranslationView
  language: string
  /** The browser's translator translates the page (null: our service does); `fallback`: what it cannot goes to ours. */
  onDevice: { fallback: boolean } | null
  setLanguage: (language: string) => void
  /** The page's site; null when the page is not a web site (no Always for it). */
  origin: string | null
  always: boolean
  setAlways: (always: boolean) => void
  toggle: () => void
  turnOff: () => void
  stop: () => void
  resume: () => void
  onSignIn: () => void
}

const smallButton = "shrink-0 rounded-md border border-gray-300 bg-white px-2.5 py-1 text-xs font-semibold text-brand-secondary hover:bg-gray-50 focus-ring"

/** Where it stands, in the badge's words. */
export function statusText({ on, showing, status, done, total, message }: TabTranslationView): string {
  if (!on) return ""
  if (!showing) return "Showing the original images. Press the button again to show the translations."
  switch (status) {
    case "translating":
      return `Translating images: ${done} of ${total}`
    case "done":
      return total ? `${countOf(done, "image", "images")} translated. Images added to the page are translated as they appear.` : "No image on this page has text to translate yet."
    case "stopped":
      return `Stopped: ${done} of ${total} images translated.`
    case "quota":
    case "error":
      return message ?? "The translation stopped."
  }
}

export function PageTranslationBox(props: PageTranslationBoxProps) {
  const { view, language, onDevice, setLanguage, origin, always, setAlways, toggle, turnOff, stop, resume, onSignIn } = props
  const pressed = view.on && view.showing
  const refused = view.on && view.showing && (view.status === "quota" || view.status === "error")
  return (
    <section aria-label="Translate images" className="space-y-2 rounded-lg border border-gray-200 bg-white p-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <button
          type="button"
          aria-pressed={pressed}
          onClick={toggle}
          className={`rounded-md border px-3 py-1.5 text-sm font-semibold focus-ring ${pressed ? "border-blue-600 bg-blue-600 text-white" : "border-gray-300 bg-white text-brand-secondary hover:bg-gray-50"}`}
        >
          {TRANSLATE_PAGE_LABEL}
        </button>
        <LanguageSelect label="Into" value={language} onChange={setLanguage} />
      </div>
      {origin && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={always} onChange={(event) => setAlways(event.target.checked)} className="h-4 w-4 accent-brand-primary" />
          Always translate images on this site
        </label>
      )}
      {view.on && (
        <div className="flex items-start justify-between gap-3">
          <div role={refused ? "alert" : undefined} className={`space-y-1 text-xs ${refused ? "text-red-800" : "text-gray-600"}`}>
            <p role={refused ? undefined : "status"} data-testid="page-translation-status">
              {statusText(view)}
            </p>
            {refused && view.status === "quota" && view.upgradeUrl && (
              <a href={view.upgradeUrl} target="_blank" rel="noreferrer" className="font-semibold text-blue-700 hover:underline focus-ring">
                Upgrade
              </a>
            )}
            {refused && view.message === SIGNED_OUT_TRANSLATE_IMAGES_MESSAGE && (
              <button type="button" onClick={onSignIn} className="font-semibold text-blue-700 hover:underline focus-ring">
                Sign in
              </button>
            )}
          </div>
          <div className="flex shrink-0 gap-2">
            {view.showing && view.status === "translating" && (
              <button type="button" className={smallButton} onClick={stop}>
                Stop
              </button>
            )}
            {view.showing && view.status === "stopped" && (
              <button type="button" className={smallButton} onClick={resume}>
                Continue
              </button>
            )}
            {refused && view.status === "error" && (
              <button type="button" className={smallButton} onClick={resume}>
                Try again
              </button>
            )}
            <button type="button" className={smallButton} onClick={turnOff}>
              Turn off
            </button>
          </div>
        </div>
      )}
      <p className="text-xs text-gray-500" data-testid="page-translation-cost">
        {onDevice
          ? `Each image’s text is read and translated on this computer by the browser’s own translator: nothing is sent and nothing is counted. Translations are kept on this device for 7 days.${
              onDevice.fallback ? ` Text in a language the browser cannot translate goes to ${recipient("it")}, and counts as one AI request per image.` : ""
            }`
          : `Each image’s text is read on this computer; only the text is sent, to ${recipient("it")}. Each image translated counts as one AI request, and is kept on this device for 7 days.`}
      </p>
    </section>
  )
}
