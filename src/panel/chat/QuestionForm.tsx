import { useState, type FormEvent, type ReactNode } from "react"

import { MAX_QUESTION_LENGTH } from "~core/analysis/vqa"

export interface QuestionFormProps {
  id: string
  /** Read by screen readers; the placeholder shows the same intent. */
  label: string
  placeholder: string
  submitLabel: string
  /** Nothing to ask about yet: the field is disabled too. */
  unavailable?: boolean
  /** A question is being answered: another cannot be sent. */
  busy?: boolean
  className?: string
  /** Gets the trimmed question; the field is emptied when `clearOnSend`. */
  onAsk: (question: string) => void
  clearOnSend?: boolean
  /** A line above the field (what asking sends, and to whom). */
  notice?: ReactNode
}

/** One line to type a question to the vision model, within the server's length limit. */
export function QuestionForm({ id, label, placeholder, submitLabel, unavailable = false, busy = false, className = "", onAsk, clearOnSend = false, notice }: QuestionFormProps) {
  const [question, setQuestion] = useState("")
  const canSend = !busy && !unavailable && question.trim() !== ""
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!canSend) return
    onAsk(question.trim())
    if (clearOnSend) setQuestion("")
  }
  return (
    <form onSubmit={submit} className={`space-y-1 ${className}`}>
      {notice}
      <div className="flex gap-2">
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <input
          id={id}
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          maxLength={MAX_QUESTION_LENGTH}
          disabled={unavailable}
          placeholder={placeholder}
          className="min-w-0 flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30 disabled:bg-gray-100"
        />
        <button
          type="submit"
          disabled={!canSend}
          className="rounded-lg bg-blue-600 px-3 py-2 text-sm font-semibold text-white disabled:opacity-50 focus-ring focus-visible:outline-offset-2"
        >
          {submitLabel}
        </button>
      </div>
    </form>
  )
}
