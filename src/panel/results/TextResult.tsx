import { useState } from "react"

import type { OcrResult } from "~analysis/ocr"
import { layoutText } from "~analysis/ocr-layout"
import { countOf, percent } from "~core/format"
import { copyText } from "~ui/clipboard"

import type { DetectedReading } from "../analyses"
import { languageNames } from "../ocr-languages"
import { TranslateText } from "./TranslateText"

export interface TextResultProps {
  ocr: OcrResult
  reading?: DetectedReading
  /** Show the words as laid out on the image (columns kept) instead of running lines. */
  keepLayout: boolean
  onKeepLayoutChange: (keepLayout: boolean) => void
  onUsageChanged: () => void
}

/** What "Detect language" did, in words: "Devanagari script: read in हिन्दी (Hindi). Turned 90° to read." */
function readingSummary(reading: DetectedReading): string {
  const turned = reading.rotation ? ` The text was turned ${reading.rotation}° to read it upright.` : ""
  if (reading.note) return `${reading.note}${turned}`
  return `${reading.script} script: read in ${languageNames(reading.languages, [])}.${turned}`
}

export function TextResult({ ocr, reading, keepLayout, onKeepLayoutChange, onUsageChanged }: TextResultProps) {
  const [copied, setCopied] = useState<boolean | null>(null)
  const text = ocr.text.trim()
  const shown = keepLayout ? layoutText(ocr.words) || text : text
  return (
    <section aria-label="Text found" className="space-y-2">
      {reading && (
        <p data-testid="ocr-reading" className="rounded-md bg-blue-50 px-2 py-1 text-xs text-blue-900">
          {readingSummary(reading)}
        </p>
      )}
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-gray-600">{text ? `${countOf(ocr.words.length, "word", "words")} · confidence ${percent(ocr.confidence)}` : "No text found in this image."}</p>
        {text && (
          <button
            type="button"
            className="rounded-md border border-gray-300 px-2 py-1 text-xs font-medium hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary"
            onClick={() => void copyText(shown).then(setCopied)}
          >
            {copied === true ? "Copied" : copied === false ? "Copy failed" : "Copy text"}
          </button>
        )}
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
          {shown}
        </pre>
      )}
      {text && <TranslateText text={text} onUsageChanged={onUsageChanged} />}
    </section>
  )
}
