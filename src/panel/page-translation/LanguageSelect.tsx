import { useId } from "react"

import { TRANSLATE_LANGUAGES } from "~core/translate"

const selectClass =
  "rounded-md border border-gray-300 bg-white px-2 py-1 text-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"

/** The languages images are translated into, each in English and in its own name. */
export function LanguageSelect({ label, value, onChange }: { label: string; value: string; onChange: (code: string) => void }) {
  const id = useId()
  return (
    <span className="flex items-center gap-2 text-sm">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={selectClass}>
        {TRANSLATE_LANGUAGES.map((language) => (
          <option key={language.code} value={language.code}>
            {language.nativeName === language.name ? language.name : `${language.name} · ${language.nativeName}`}
          </option>
        ))}
      </select>
    </span>
  )
}
