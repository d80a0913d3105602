import { useEffect, useRef, useState } from "react"

import { BoxOverlay } from "~ui/BoxOverlay"
import { PressedButtons } from "~ui/PressedButtons"
import { ProgressLine } from "~ui/ProgressLine"
import { TranslatedLayer } from "~ui/TranslatedLayer"

import { textReadingKey } from "../analyses"
import { OcrLanguagePicker } from "../settings/OcrLanguagePicker"
import { QuestionNotice } from "../ai/QuestionNotice"
import { AskServiceButton, StreamingAnswer } from "../ai/StreamingAnswer"
import { QuestionForm } from "../chat/QuestionForm"
import { ReverseSearchMenu } from "./ReverseSearchMenu"
import { resultBoxes, ResultView } from "../results/ResultView"
import { TextLayer } from "../results/TextLayer"
import type { LinesTranslation } from "../results/TranslateText"
import { translatedLines } from "../results/translated-lines"
import { useLineColours } from "../results/use-line-colours"
import { useShownImage } from "./ShownImage"
import { ANALYSIS_KINDS, ANALYSIS_LABELS, type PanelSettings } from "../settings/settings"
import { useAnalysis } from "../use-analysis"
import type { FocusedImage } from "./use-focused-image"

export interface ImageDetailProps extends Pick<FocusedImage, "image" | "autoRun" | "translateOnImage"> {
  settings: PanelSettings
  onSettingsChange: (settings: PanelSettings) => void
  onBack: () => void
  onUsageChanged: () => void
  onSignIn: () => void
}

/** One image: the analyses to choose from, the chosen one's progress or result, and its boxes over the image. */
const IMAGE_VIEWS = ["original", "translated"] as const
type ImageView = (typeof IMAGE_VIEWS)[number]

export function ImageDetail({ image, settings, onSettingsChange, autoRun, translateOnImage = false, onBack, onUsageChanged, onSignIn }: ImageDetailProps) {
  const { kind, state, start, stop, askService } = useAnalysis({ image, autoRun, settings, onUsageChanged })
  const [natural, setNatural] = useState({ width: image.width, height: image.height })
  const [focusedLine, setFocusedLine] = useState<number | null>(null)
  // The translation laid over the image, for the text it was made from; Original shows the image as it is.
  const [overlay, setOverlay] = useState<(LinesTranslation & { ocr: unknown }) | null>(null)
  const [view, setView] = useState<ImageView>("translated")

  // Another language choice while the Text view is open reads the image again in those languages.
  const languages = textReadingKey(settings)
  const shownLanguages = useRef(languages)
  useEffect(() => {
    if (shownLanguages.current === languages) return
    shownLanguages.current = languages
    if (kind === "text") start("text")
  }, [languages, kind, start])

  const outcome = state.status === "done" ? state.outcome : null
  const textOutcome = outcome?.kind === "text" ? outcome : null
  const shownOverlay = textOutcome && overlay?.ocr === textOutcome.ocr ? overlay : null
  const { boxes, tone } = resultBoxes(outcome)
  // Text read turned upright is shown as read, so that its boxes stand on it.
  const uprightUrl = outcome?.kind === "text" ? outcome.reading?.uprightUrl : undefined
  const shownUrl = uprightUrl || image.url
  const displayed = useShownImage({ ...image, url: shownUrl })
  // Text boxes are in the pixels of the image read, which may be a scaled copy (an SVG drawn for the engine).
  const boxSpace = outcome?.kind === "text" ? { width: outcome.ocr.imageWidth, height: outcome.ocr.imageHeight } : natural
  const colours = useLineColours({ url: shownUrl, tabId: image.tabId, frameId: image.frameId, pageUrl: image.pageUrl }, shownOverlay ? textOutcome!.ocr : null)
  const translatedShown = shownOverlay !== null && colours !== null && view === "translated"

  return (
    <div className="space-y-4">
      <button type="button" onClick={onBack} className="text-sm font-medium text-blue-700 hover:underline focus-ring">
        ← All images
      </button>
      <figure className="space-y-1">
        <div className="relative overflow-hidden rounded-lg border border-gray-200 bg-gray-100">
          {displayed.kind === "failed" ? (
            <p className="p-4 text-sm text-red-800">{displayed.message}</p>
          ) : (
            <img
              src={displayed.kind === "shown" ? displayed.url : undefined}
              alt={image.alt || "Selected image"}
              className="block h-auto w-full"
              onLoad={(event) => setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
            />
          )}
          {!translatedShown && <BoxOverlay boxes={boxes} width={boxSpace.width} height={boxSpace.height} tone={tone} />}
          {textOutcome && !translatedShown && <TextLayer ocr={textOutcome.ocr} highlightedLine={focusedLine} />}
          {textOutcome && translatedShown && (
            <TranslatedLayer width={textOutcome.ocr.imageWidth} height={textOutcome.ocr.imageHeight} lines={translatedLines(textOutcome.ocr, shownOverlay.lines, colours)} />
          )}
        </div>
        {shownOverlay && (
          <div className="flex flex-wrap items-center justify-between gap-2 pt-1">
            <PressedButtons label="Image shown" options={IMAGE_VIEWS} value={view} onChange={setView}>
              {(option) => (option === "original" ? "Original" : `Translated · ${shownOverlay.language}`)}
            </PressedButtons>
            {view === "translated" && colours === null && <span className="text-xs text-gray-500">Laying the translation over the image…</span>}
          </div>
        )}
        <figcaption className="truncate text-xs text-gray-500" title={image.url}>
          {natural.width} × {natural.height} · {image.alt || image.url}
        </figcaption>
      </figure>

      {/* Only the analysis running is held: another may be chosen at once (an image opens reading its text). */}
      <div role="group" aria-label="Analyses" className="flex flex-wrap gap-2">
        {ANALYSIS_KINDS.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={kind === option}
            disabled={state.status === "running" && kind === option}
            onClick={() => start(option)}
            className={`rounded-full border px-3 py-1 text-sm font-medium focus-ring disabled:opacity-60 ${
              kind === option ? "border-blue-600 bg-blue-600 text-white" : "border-gray-300 bg-white text-brand-secondary hover:bg-gray-50"
            }`}
          >
            {ANALYSIS_LABELS[option]}
          </button>
        ))}
      </div>
      <ReverseSearchMenu image={image} />

      {kind === "text" && (
        <OcrLanguagePicker
          value={settings.ocrLanguages}
          onChange={(ocrLanguages) => onSettingsChange({ ...settings, ocrLanguages })}
          detect={settings.ocrDetectLanguage}
          onDetectChange={(ocrDetectLanguage) => onSettingsChange({ ...settings, ocrDetectLanguage })}
          disabled={state.status === "running"}
        />
      )}

      {kind === "ask" && (
        <QuestionForm id="image-question" label="Your question about this image" placeholder="Ask something about this image" submitLabel="Ask" busy={state.status === "running"} onAsk={(question) => start("ask", question)} notice={<QuestionNotice images={[image]} />} />
      )}

      {state.status === "running" && (state.answerSoFar === undefined ? <ProgressLine progress={state.progress} /> : <StreamingAnswer answerSoFar={state.answerSoFar} onStop={stop} />)}
      {state.status === "error" && (
        <div role="alert" className="space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p>{state.message}</p>
          {state.signedOut && (
            <button type="button" onClick={onSignIn} className="font-semibold text-blue-700 hover:underline">
              Sign in
            </button>
          )}
          {state.offerService && <AskServiceButton onClick={askService} />}
        </div>
      )}
      {outcome && (
        <ResultView
          outcome={outcome}
          keepTextLayout={settings.ocrKeepLayout}
          onKeepTextLayoutChange={(ocrKeepLayout) => onSettingsChange({ ...settings, ocrKeepLayout })}
          onUsageChanged={onUsageChanged}
          onTextLineFocus={setFocusedLine}
          onShowTranslation={(translation) => {
            if (!textOutcome) return
            setOverlay({ ...translation, ocr: textOutcome.ocr })
            setView("translated")
          }}
          autoTranslate={translateOnImage && kind === "text"}
        />
      )}
    </div>
  )
}
