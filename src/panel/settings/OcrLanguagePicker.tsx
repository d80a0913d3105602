import { useId, useState } from "react"

import { CompactTextField } from "~ui/fields"

import { languageMatches, languageNames, LANGUAGES_UNAVAILABLE_MESSAGE, useOcrLanguageChoices } from "./ocr-languages"
import { MAX_OCR_LANGUAGES } from "./settings"

/** Above this many languages (a server with a whole tessdata folder offers 120) the list gets a search box. */
const SEARCH_FROM = 12

export interface OcrLanguagePickerProps {
  value: readonly string[]
  onChange: (codes: string[]) => void
  /** "Detect language": tell the script first and read in a language of it. */
  detect: boolean
  onDetectChange: (detect: boolean) => void
  disabled?: boolean
}

/**
 * The Text (OCR) languages, several at once: English always, the server's packs when it answers. Each name in
 * English and in its own script. A folded list, so the Text view stays short; at least one language stays chosen.
 * A long list can be searched; the chosen languages stay in view whatever the search, so they can be unticked.
 */
export function OcrLanguagePicker({ value, onChange, detect, onDetectChange, disabled = false }: OcrLanguagePickerProps) {
  const choices = useOcrLanguageChoices()
  const noteId = useId()
  const detectNoteId = useId()
  const canDetect = choices.status === "ready" && choices.scriptDetection
  const [query, setQuery] = useState("")
  const toggle = (code: string, chosen: boolean) => onChange(chosen ? [...value, code] : value.filter((candidate) => candidate !== code))
  const searchable = choices.languages.length > SEARCH_FROM
  const searching = searchable && query.trim() !== ""
  const shown = searching ? choices.languages.filter((language) => value.includes(language.code) || languageMatches(language, query)) : choices.languages

  return (
    <details className="rounded-lg border border-gray-200 bg-white text-sm">
      <summary className="cursor-pointer px-3 py-2 font-medium focus-ring">
        Text languages:{" "}
        <span data-testid="ocr-languages">{detect && canDetect ? `Detect (else ${languageNames(value, choices.languages)})` : languageNames(value, choices.languages)}</span>
      </summary>
      {canDetect && (
        <div className="border-t border-gray-100 px-3 py-2">
          <label className="flex items-center gap-2 font-medium">
            <input type="checkbox" className="accent-brand-primary" checked={detect} disabled={disabled} aria-describedby={detectNoteId} onChange={(event) => onDetectChange(event.target.checked)} />
            Detect language
          </label>
          <p id={detectNoteId} className="mt-1 text-xs text-gray-500">
            Tells the script and turns sideways text upright, then reads it in a language of that script: one you chose below when it is written in it.
          </p>
        </div>
      )}
      {searchable && (
        <div className="border-t border-gray-100 px-3 py-2">
          <CompactTextField label="Find a language" type="search" value={query} onChange={(event) => setQuery(event.target.value)} placeholder="Name in English or its own, or code" />
        </div>
      )}
      {/* A Tab stop of its own: while a reading runs the boxes are disabled, and the list must still scroll from the keyboard
          (a disabled fieldset would not take the focus itself, so the boxes are disabled one by one). */}
      <fieldset tabIndex={0} className="max-h-64 space-y-1 overflow-auto border-t border-gray-100 px-3 py-2 focus-ring" aria-describedby={noteId}>
        <legend className="sr-only">Languages to read</legend>
        {searching && shown.every((language) => value.includes(language.code)) && <p className="text-gray-600">No other language matches “{query.trim()}”.</p>}
        {shown.map((language) => {
          const chosen = value.includes(language.code)
          const locked = (chosen && value.length === 1) || (!chosen && value.length >= MAX_OCR_LANGUAGES)
          return (
            <label key={language.code} className="flex items-center gap-2">
              <input type="checkbox" className="accent-brand-primary" checked={chosen} disabled={disabled || locked} onChange={(event) => toggle(language.code, event.target.checked)} />
              <span>
                {language.name}
                {language.nativeName !== language.name && <span className="text-gray-600"> · {language.nativeName}</span>}
              </span>
              <span className="ml-auto text-xs text-gray-500">{language.script}</span>
            </label>
          )
        })}
      </fieldset>
      <p id={noteId} className="px-3 pb-2 text-xs text-gray-500">
        {choices.status === "unavailable"
          ? LANGUAGES_UNAVAILABLE_MESSAGE
          : choices.status === "loading"
            ? "Loading the list of languages…"
            : `Up to ${MAX_OCR_LANGUAGES} at once. A language other than English is downloaded once from the Image Query AI service, then read on this device.`}
      </p>
    </details>
  )
}
