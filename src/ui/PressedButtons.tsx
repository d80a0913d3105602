/**
 * A row of buttons of which one is pressed (a list's filter, a choice of view), each telling its state by
 * aria-pressed. Radix's single ToggleGroup would make them radios (role="radio", aria-checked), which is not what
 * these rows are nor what their users and tests look for.
 */
import type { ReactNode } from "react"

interface PressedButtonsProps<Option extends string> {
  /** The group's accessible name ("Filter by status"). */
  label: string
  options: readonly Option[]
  value: Option
  onChange: (option: Option) => void
  /** What a button shows for its option. */
  children: (option: Option) => ReactNode
  className?: string
}

export function PressedButtons<Option extends string>({ label, options, value, onChange, children, className = "" }: PressedButtonsProps<Option>) {
  return (
    <div role="group" aria-label={label} className={`flex gap-1 ${className}`}>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`rounded-lg px-3 py-1.5 text-sm font-medium focus-ring ${value === option ? "bg-blue-600 text-white" : "text-gray-600 hover:bg-gray-100"}`}
        >
          {children(option)}
        </button>
      ))}
    </div>
  )
}
