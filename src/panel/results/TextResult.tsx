import { Fragment, useId, useMemo, useRef, useState, type KeyboardEvent } from "react"

import type { OcrResult } from "~analysis/ocr"
import { layoutText } from "~analysis/ocr-layout"
import { countOf, percent } from "~core/format"
import { copyText } from "~ui/clipboard"

import { useLineCopy } from "./use-line-copy"

import type { DetectedReading } from "../analyses"
import { languageNames } from "../settings/ocr-languages"
import { TranslateText, type LinesTranslation } from "./TranslateText"


export interface TextResultProps {
  ocr: OcrResult
  reading?: DetectedReading
  /** Show the words as laid out on the image (columns kept) instead of running lines. */
  keepLayout: boolean
  onKeepLayoutChange: (keepLayout: boolean) => void
  onUsageChanged: () => void
  /** The line in focus (its index among the text layer's lines), or null: the layer outlines it on the image. */
  onLineFocus?: (line: number | null) => void
  onShowTranslation?: (translation: LinesTranslation) => void
  autoTranslate?: boolean
}

/** What "Detect language" did, in words: "Devanagari script: read in हिन्दी (Hindi). Turned 90° to read." */
function readingSummary(reading: DetectedReading): string {
  const turned = reading.rotation ? ` The text was turned ${reading.rotation}° to read it upright.` : ""
  if (reading.note) return `${reading.note}${turned}`
  return `${reading.script} script: read in ${languageNames(reading.languages, [])}.${turned}`
}

/**
 * The text block: the text as read, for screen readers (the layer over the image is hidden from them) and for
 * keyboard users, who copy a line from here: one Tab stop, the arrow keys move between lines, Enter (or Ctrl+C
 * with nothing selected) copies the line. The line in focus is outlined over the image too.
 */
export function TextResult({ ocr, reading, keepLayout, onKeepLayoutChange, onUsageChanged, onLineFocus, onShowTranslation, autoTranslate }: TextResultProps) {
  const [copied, setCopied] = useState<boolean | null>(null)
  const { status: lineStatus, copyLine } = useLineCopy()
  const [current, setCurrent] = useState(0)
  const lineElements = useRef<(HTMLSpanElement | null)[]>([])
  const hintId = useId()

  const text = ocr.text.trim()
  const lineTexts = useMemo(() => ocr.lines.map((line) => line.text), [ocr.lines])
  const laidOut = useMemo(() => (keepLayout ? layoutText(ocr.words) : ""), [keepLayout, ocr.words])
  const shown = laidOut || text
  const rows = shown ? shown.split("\n") : []
  const lineCount = rows.filter((row) => row.trim()).length
  // The text's lines are the layer's lines, blank lines aside (not the rows Keep layout makes); otherwise no
  // line is outlined on the image.
  const matchesLayer = !keepLayout && lineCount === ocr.lines.length

  const move = (to: number) => {
    const next = Math.max(0, Math.min(lineCount - 1, to))
    setCurrent(next)
    lineElements.current[next]?.focus()
  }

  const onKeyDown = (event: KeyboardEvent, row: string, line: number) => {
    const nothingSelected = !window.getSelection()?.toString()
    if (event.key === "ArrowDown") move(line + 1)
    else if (event.key === "ArrowUp") move(line - 1)
    else if (event.key === "Home") move(0)
    else if (event.key === "End") move(lineCount - 1)
    else if (event.key === "Enter" || event.key === " " || ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "c" && nothingSelected)) copyLine(row.trim())
    else return
    event.preventDefault()
  }

  let line = -1
  return (
    <section aria-label="Text found" className="space-y-2">
      {reading && (
        <p data-testid="ocr-reading" className="rounded-md bg-blue-50 px-2 py-1 text-xs text-blue-900">
          {readingSummary(reading)}
        </p>
      )}
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-gray-600">{text ? `${countOf(ocr.words.length, "word", "words")} · confidence ${percent(ocr.confidence)}` : "No text found in this image."}</p>
        <div className="flex items-center gap-2">
          <p role="status" className="text-xs font-medium text-emerald-700">
            {lineStatus}
          </p>
          {text && (
            <button
              type="button"
              className="rounded-md border border-gray-300 px-2 py-1 text-xs font-medium hover:bg-gray-50 focus-ring"
              onClick={() => void copyText(shown).then(setCopied)}
            >
              {copied === true ? "Copied" : copied === false ? "Copy failed" : "Copy text"}
            </button>
          )}
        </div>
      </div>
      {text && (
        <label className="flex items-center gap-2 text-xs font-medium text-gray-700">
          <input type="checkbox" className="accent-brand-primary" checked={keepLayout} onChange={(event) => onKeepLayoutChange(event.target.checked)} />
          Keep layout (tables and columns)
        </label>
      )}
      {text && (
        <pre
          data-testid="ocr-text"
          className={`max-h-64 overflow-auto rounded-lg border border-gray-200 bg-white p-3 text-sm ${keepLayout ? "whitespace-pre font-mono" : "whitespace-pre-wrap font-sans"}`}
        >
          {rows.map((row, index) => {
            const end = index < rows.length - 1 ? "\n" : ""
            if (!row.trim()) return row + end
            const own = ++line
            return (
              <Fragment key={index}>
                <span
                  ref={(element) => {
                    lineElements.current[own] = element
                  }}
                  tabIndex={own === Math.min(current, lineCount - 1) ? 0 : -1}
                  aria-describedby={hintId}
                  data-line={own}
                  onKeyDown={(event) => onKeyDown(event, row, own)}
                  onFocus={() => {
                    setCurrent(own)
                    onLineFocus?.(matchesLayer ? own : null)
                  }}
                  onBlur={() => onLineFocus?.(null)}
                  className="rounded-sm focus:bg-blue-100 focus:outline focus:outline-2 focus:outline-brand-primary"
                >
                  {row}
                </span>
                {end}
              </Fragment>
            )
          })}
        </pre>
      )}
      {text && (
        <p id={hintId} className="text-xs text-gray-600">
          {ocr.lines.length > 0 ? "Select text on the image or click a line to copy it; here, " : "Here, "}
          Tab to a line, move with the arrow keys, Enter copies it.
        </p>
      )}
      {text && <TranslateText text={text} lines={lineTexts} ocrLanguages={reading?.languages} onUsageChanged={onUsageChanged} onShowOnImage={onShowTranslation} autoStart={autoTranslate} />}
    </section>
  )
}
