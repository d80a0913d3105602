/**
 * An input whose label only assistive technology reads (its placeholder or its box says the rest to the eye): the
 * search boxes of the blog and help pages, the e-mail box of the subscribe forms.
 */
import { useId, type InputHTMLAttributes } from "react"

export interface HiddenLabelInputProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string
}

export function HiddenLabelInput({ label, id, ...input }: HiddenLabelInputProps) {
  const ownId = useId()
  const inputId = id ?? ownId
  return (
    <>
      <label htmlFor={inputId} className="sr-only">
        {label}
      </label>
      <input id={inputId} {...input} />
    </>
  )
}
