import { useState } from "react"

import type { OcrResult } from "~analysis/ocr"
import { countOf, percent } from "~core/format"
import { copyText } from "~ui/clipboard"

import { TranslateText } from "./TranslateText"

export function TextResult({ ocr, onUsageChanged }: { ocr: OcrResult; onUsageChanged: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null)
  const text = ocr.text.trim()
  return (
    <section aria-label="Text found" className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-gray-600">{text ? `${countOf(ocr.words.length, "word", "words")} · confidence ${percent(ocr.confidence)}` : "No text found in this image."}</p>
        {text && (
          <button
            type="button"
            className="rounded-md border border-gray-300 px-2 py-1 text-xs font-medium hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-primary"
            onClick={() => void copyText(text).then(setCopied)}
          >
            {copied === true ? "Copied" : copied === false ? "Copy failed" : "Copy text"}
          </button>
        )}
      </div>
      {text && (
        <pre data-testid="ocr-text" className="max-h-64 overflow-auto whitespace-pre-wrap rounded-lg border border-gray-200 bg-white p-3 font-sans text-sm">
          {text}
        </pre>
      )}
      {text && <TranslateText text={text} onUsageChanged={onUsageChanged} />}
    </section>
  )
}
