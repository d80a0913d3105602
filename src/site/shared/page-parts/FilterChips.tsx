/** The row of category buttons above a filtered list (blog, help): one pressed at a time, "All" first (value null). */

export interface ChipOption<Value extends string> {
  value: Value | null
  label: string
}

export interface FilterChipsProps<Value extends string> {
  options: readonly ChipOption<Value>[]
  selected: Value | null
  onSelect: (value: Value | null) => void
  className: string
}

function chipStyles(selected: boolean) {
  return `rounded-full border px-4 py-2 text-sm font-medium transition focus-ring focus-visible:outline-offset-2 ${
    selected ? "border-brand-secondary bg-brand-secondary text-white" : "border-gray-300 bg-white text-gray-700 hover:border-gray-400"
  }`
}

export function FilterChips<Value extends string>({ options, selected, onSelect, className }: FilterChipsProps<Value>) {
  return (
    <div role="group" aria-label="Categories" className={className}>
      {options.map((option) => (
        <button
          key={option.value ?? ""}
          type="button"
          aria-pressed={selected === option.value}
          onClick={() => onSelect(option.value)}
          className={chipStyles(selected === option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  )
}
