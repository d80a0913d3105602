/** The search box at the top of a filtered list (blog, help): a magnifier inside a wide rounded field. */
import { Search } from "~ui/icons"

import { HiddenLabelInput } from "./HiddenLabelInput"

export interface SearchFieldProps {
  /** Read by assistive technology and shown as the placeholder. */
  label: string
  value: string
  onChange: (value: string) => void
}

export function SearchField({ label, value, onChange }: SearchFieldProps) {
  return (
    <div className="relative mx-auto mt-8 max-w-xl">
      <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-gray-400" />
      <HiddenLabelInput
        label={label}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={label}
        className="block w-full rounded-xl border border-gray-300 bg-white py-3 pl-10 pr-3 text-base shadow-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"
      />
    </div>
  )
}
