/**
 * The site's form controls, each with its label, hint and error wired for screen readers: text, password, select,
 * textarea and checkbox, and the compact text input and select of dense admin lists. Pages use these instead of
 * writing control class strings again.
 */
import {
  useEffect,
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes
} from "react"

import { Eye, EyeOff } from "./icons"

const inputStyles =
  "block w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-sm text-brand-secondary shadow-sm placeholder:text-gray-400 focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30 disabled:bg-gray-100 aria-[invalid=true]:border-red-500"

/** The denser control of lists with many fields (the policy's rule cards, the inbox's status): less padding. */
const compactInputStyles =
  "block w-full rounded-lg border border-gray-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30 disabled:bg-gray-100"

/** A field's hint, or its error in place of the hint; ids match the input's aria-describedby. */
function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  if (error) {
    return (
      <p id={`${id}-error`} className="mt-1 text-xs text-red-600">
        {error}
      </p>
    )
  }
  if (!hint) return null
  return (
    <div id={`${id}-hint`} className="mt-1 text-xs text-gray-500">
      {hint}
    </div>
  )
}

/** The control's id and how it points screen readers to its error or hint. */
const controlProps = (id: string, error?: string, hint?: ReactNode) => ({
  id,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": error ? `${id}-error` : hint ? `${id}-hint` : undefined
})

/** A form control with its label above and its hint, or its error, below. */
function LabelledField({ id, label, hint, error, children }: { id: string; label: string; hint?: ReactNode; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      {children}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  )
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: string
  error?: string
  hint?: ReactNode
}

export function TextField({ label, error, hint, ...input }: FieldProps) {
  const id = useId()
  return (
    <LabelledField id={id} label={label} hint={hint} error={error}>
      <input className={`mt-1 ${inputStyles}`} {...controlProps(id, error, hint)} {...input} />
    </LabelledField>
  )
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  label: string
  error?: string
  children: ReactNode
}

export function SelectField({ label, error, children, ...select }: SelectFieldProps) {
  const id = useId()
  return (
    <LabelledField id={id} label={label} error={error}>
      <select className={`mt-1 ${inputStyles}`} {...controlProps(id, error)} {...select}>
        {children}
      </select>
    </LabelledField>
  )
}

interface TextareaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id"> {
  label: string
  error?: string
  hint?: ReactNode
}

export function TextareaField({ label, error, hint, ...textarea }: TextareaFieldProps) {
  const id = useId()
  return (
    <LabelledField id={id} label={label} hint={hint} error={error}>
      <textarea className={`mt-1 ${inputStyles}`} {...controlProps(id, error, hint)} {...textarea} />
    </LabelledField>
  )
}

interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "onChange" | "checked" | "className"> {
  label: ReactNode
  checked: boolean
  onChange: (checked: boolean) => void
}

/** A checkbox inside its label, so a click on the words ticks it; a label of several lines keeps the box at the top. */
export function Checkbox({ label, checked, onChange, ...input }: CheckboxProps) {
  return (
    <label className="flex cursor-pointer items-start gap-2 text-sm text-gray-700">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 h-4 w-4 shrink-0 rounded border-gray-300 text-brand-primary accent-brand-primary focus-ring focus-visible:outline-offset-2"
        {...input}
      />
      <span>{label}</span>
    </label>
  )
}

/**
 * The small label above a compact control. `context` (a rule's name) completes the label for screen readers where
 * sighted users read it in the card's heading.
 */
function CompactLabelled({ id, label, context, children }: { id: string; label: string; context?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-xs font-medium text-gray-600">
        {label}
        {context && <span className="sr-only"> ({context})</span>}
      </label>
      <div className="mt-1">{children}</div>
    </div>
  )
}

interface CompactTextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  label: string
  context?: string
}

export function CompactTextField({ label, context, className = "", ...input }: CompactTextFieldProps) {
  const id = useId()
  return (
    <CompactLabelled id={id} label={label} context={context}>
      <input id={id} className={`${compactInputStyles} ${className}`} {...input} />
    </CompactLabelled>
  )
}

interface CompactSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  label: string
  context?: string
  children: ReactNode
}

export function CompactSelect({ label, context, children, ...select }: CompactSelectProps) {
  const id = useId()
  return (
    <CompactLabelled id={id} label={label} context={context}>
      <select id={id} className={compactInputStyles} {...select}>
        {children}
      </select>
    </CompactLabelled>
  )
}

interface PasswordFieldProps extends Omit<FieldProps, "type"> {
  /** A key that with Ctrl+Shift toggles visibility: P on the login page, C for the register page's confirmation. */
  toggleKey?: string
}

/** A password input with a show/hide button, and an optional Ctrl+Shift shortcut. */
export function PasswordField({ label, error, hint, toggleKey, ...input }: PasswordFieldProps) {
  const id = useId()
  const [visible, setVisible] = useState(false)

  useEffect(() => {
    if (!toggleKey) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey && event.shiftKey && event.key.toLowerCase() === toggleKey.toLowerCase()) {
        event.preventDefault()
        setVisible((shown) => !shown)
      }
    }
    window.addEventListener("keydown", onKeyDown)
    return () => window.removeEventListener("keydown", onKeyDown)
  }, [toggleKey])

  const shortcut = toggleKey ? ` (Ctrl+Shift+${toggleKey.toUpperCase()})` : ""
  return (
    <LabelledField id={id} label={label} hint={hint} error={error}>
      <div className="relative mt-1">
        <input type={visible ? "text" : "password"} className={`${inputStyles} pr-10`} {...controlProps(id, error, hint)} {...input} />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={`${visible ? "Hide" : "Show"} ${label.toLowerCase()}${shortcut}`}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex items-center rounded-r-lg px-3 text-gray-500 hover:text-brand-secondary focus-ring"
        >
          {visible ? <EyeOff aria-hidden="true" className="h-4 w-4" /> : <Eye aria-hidden="true" className="h-4 w-4" />}
        </button>
      </div>
    </LabelledField>
  )
}

/** The "or" line between a form and the federated sign-in button. */
export function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wide text-gray-500">
      <span className="h-px flex-1 bg-gray-200" /> or <span className="h-px flex-1 bg-gray-200" />
    </div>
  )
}
