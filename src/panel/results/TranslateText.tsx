import { useEffect, useId, useRef, useState } from "react"

import { MAX_TRANSLATE_TEXT_LENGTH, TRANSLATE_LANGUAGES, translateLanguage, translateLinesSchema } from "~core/analysis/translate"
import { copyText } from "~ui/clipboard"

import { useStorageItem } from "~extension/storage/use-storage-item"

import { translateWithEngine } from "../ai/ai-engines"
import { DeviceEngineError } from "../ai/device-errors"
import { ocrSourceHint } from "../ai/device-translation"
import type { AnswerSource } from "../ai/engine-choice"
import { AskServiceButton } from "../ai/StreamingAnswer"
import { NOTHING_SENT_TEXT, usePlannedEngine } from "../ai/use-planned-engine"
import { SendNotice } from "../sent/SendNotice"
import { DEFAULT_PANEL_SETTINGS, panelSettingsItem } from "../settings/settings"

const smallButton =
  "rounded-md border border-gray-300 px-2 py-1 text-xs font-medium hover:bg-gray-50 focus-ring disabled:opacity-60"

/** The browser's language when we translate into it, else English. */
export function defaultTargetLanguage(languages: readonly string[] = navigator.languages ?? [navigator.language]): string {
  for (const tag of languages) {
    const language = translateLanguage(tag)
    if (language) return language.code
  }
  return "en"
}

type TranslateState =
  | { status: "idle" }
  | { status: "busy" }
  | { status: "done"; translation: string; language: string; lines?: string[]; source: AnswerSource }
  | { status: "error"; message: string; offerService: boolean }

/** Where a translation came from, in words. */
export const TRANSLATION_SOURCE_LABELS: Record<AnswerSource, string> = { device: "Translated on this device", service: "Translated by Image Query AI's service" }

/** An image's translated lines, to lay over the image. */
export interface LinesTranslation {
  lines: string[]
  language: string
}

export interface TranslateTextProps {
  text: string
  /**
   * The image's lines, when the text is an image's: they are translated in the one request, each in its place,
   * and the translation can be shown on the image.
   */
  lines?: readonly string[]
  /** The OCR languages the text was read in (else the panel's): the text's language for a browser without a detector. */
  ocrLanguages?: readonly string[]
  onUsageChanged: () => void
  onShowOnImage?: (translation: LinesTranslation) => void
  /** Translate at once into the default language and show the result on the image ("Translate image"). */
  autoStart?: boolean
}


/**
 * "Translate" for recognised text: by the browser's own Translator or through our API to the configured model
 * (counted in the month's quota like a question), as the translation engine chosen in Settings says. The
 * translation shows under the text with where it was made, Copy, and for an image's lines *Show on image*.
 */
export function TranslateText({ text, lines, ocrLanguages, onUsageChanged, onShowOnImage, autoStart = false }: TranslateTextProps) {
  const [target, setTarget] = useState(defaultTargetLanguage)
  const [state, setState] = useState<TranslateState>({ status: "idle" })
  const [copied, setCopied] = useState<boolean | null>(null)
  const selectId = useId()
  const [storedSettings] = useStorageItem(panelSettingsItem)
  const { translationEngine: choice, ocrLanguages: panelOcrLanguages } = storedSettings ?? DEFAULT_PANEL_SETTINGS
  const sourceHint = ocrSourceHint(ocrLanguages ?? panelOcrLanguages)
  const planned = usePlannedEngine("translation", choice, { text, targetLanguage: target })
  const tooLong = text.length > MAX_TRANSLATE_TEXT_LENGTH
  // Lines the API takes in one request (the server's own rule), else the text as one.
  const byLines = lines && translateLinesSchema.safeParse(lines).success ? lines : undefined

  const translate = (showOnImage = false, only?: AnswerSource) => {
    setState({ status: "busy" })
    setCopied(null)
    translateWithEngine(byLines ? { lines: [...byLines], targetLanguage: target } : { text, targetLanguage: target }, { choice, only, sourceHint }).then(
      (answer) => {
        const language = translateLanguage(answer.targetLanguage)?.name ?? answer.targetLanguage
        setState({ status: "done", translation: answer.translation, language, lines: answer.lines, source: answer.source })
        // Only our service counts in the plan's quota.
        if (answer.source === "service") onUsageChanged()
        if (showOnImage && answer.lines) onShowOnImage?.({ lines: answer.lines, language })
      },
      (error: unknown) =>
        setState({
          status: "error",
          message: error instanceof Error && error.message ? error.message : "The translation failed. Try again.",
          offerService: error instanceof DeviceEngineError && error.offerService
        })
    )
  }

  // Once per mounted result: "Translate image" asks for it with the image.
  const started = useRef(false)
  useEffect(() => {
    if (!autoStart || started.current || tooLong) return
    started.current = true
    translate(true)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one start, with the text and language of the first render
  }, [autoStart])

  return (
    <section aria-label="Translation" className="space-y-2">
      {!tooLong && planned === "service" && <SendNotice kind="translation" text={text} />}
      {!tooLong && planned === "device" && <p className="text-xs text-gray-600">{NOTHING_SENT_TEXT.translation}</p>}
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={selectId} className="text-xs font-medium text-gray-700">
          Translate into
        </label>
        <select
          id={selectId}
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          className="rounded-md border border-gray-300 bg-white px-2 py-1 text-xs focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"
        >
          {TRANSLATE_LANGUAGES.map((language) => (
            <option key={language.code} value={language.code}>
              {language.nativeName === language.name ? language.name : `${language.name} · ${language.nativeName}`}
            </option>
          ))}
        </select>
        <button type="button" className={smallButton} disabled={state.status === "busy" || tooLong} aria-busy={state.status === "busy" || undefined} onClick={() => translate()}>
          {state.status === "busy" ? "Translating…" : "Translate"}
        </button>
      </div>
      {tooLong && <p className="text-xs text-gray-600">This text is longer than {MAX_TRANSLATE_TEXT_LENGTH.toLocaleString("en")} characters, the most one translation takes.</p>}
      {state.status === "error" && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-2 text-xs text-red-800">
          {state.message}
          {state.offerService && (
            <span className="mt-2 block">
              <AskServiceButton label="Translate with Image Query AI's service instead" onClick={() => translate(false, "service")} />
            </span>
          )}
        </p>
      )}
      {state.status === "done" && (
        <div className="space-y-1">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-xs text-gray-600" data-testid="translation-source" data-source={state.source}>
              {TRANSLATION_SOURCE_LABELS[state.source]} into {state.language}
            </p>
            <div className="flex flex-wrap gap-2">
              {state.lines && onShowOnImage && (
                <button type="button" className={smallButton} onClick={() => onShowOnImage({ lines: state.lines!, language: state.language })}>
                  Show on image
                </button>
              )}
              <button type="button" className={smallButton} onClick={() => void copyText(state.translation).then(setCopied)}>
                {copied === true ? "Copied" : copied === false ? "Copy failed" : "Copy translation"}
              </button>
            </div>
          </div>
          <p data-testid="translation" className="whitespace-pre-wrap rounded-lg border border-gray-200 bg-white p-3 text-sm">
            {state.translation}
          </p>
        </div>
      )}
    </section>
  )
}
