import { useId } from "react"

import { TRANSLATE_LANGUAGES } from "~core/analysis/translate"

const selectClass =
  "min-w-0 max-w-full rounded-md border border-gray-300 bg-white px-2 py-1 text-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"

/**
 * The languages images are translated into, each in English and in its own name: beside its label (the Images section),
 * or under it, the width of the form (Settings).
 */
export function LanguageSelect({ label, value, onChange, stacked = false }: { label: string; value: string; onChange: (code: string) => void; stacked?: boolean }) {
  const id = useId()
  return (
    <span className={stacked ? "block space-y-1 text-sm font-medium" : "flex min-w-0 items-center gap-2 text-sm"}>
      <label htmlFor={id} className={stacked ? "block" : undefined}>
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={`${selectClass} ${stacked ? "block w-full font-normal" : ""}`}>
        {TRANSLATE_LANGUAGES.map((language) => (
          <option key={language.code} value={language.code}>
            {language.nativeName === language.name ? language.name : `${language.name} · ${language.nativeName}`}
          </option>
        ))}
      </select>
    </span>
  )
}
