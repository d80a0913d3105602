import { useId, useState } from "react"

import { ChevronDown } from "~ui/icons"

export interface AccordionItem {
  question: string
  answer: string
}

/** Question-and-answer list where each question is a button that shows or hides its answer. */
export function Accordion({ items }: { items: readonly AccordionItem[] }) {
  const baseId = useId()
  const [open, setOpen] = useState<number | null>(null)
  return (
    <ul className="divide-y divide-gray-200 rounded-2xl border border-gray-200 bg-white">
      {items.map((item, index) => {
        const expanded = open === index
        const panelId = `${baseId}-panel-${index}`
        return (
          <li key={item.question}>
            <h3>
              <button
                type="button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => setOpen(expanded ? null : index)}
                className="flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-medium text-brand-secondary hover:bg-gray-50 focus-ring"
              >
                {item.question}
                <ChevronDown aria-hidden="true" className={`h-5 w-5 shrink-0 text-gray-500 transition ${expanded ? "rotate-180" : ""}`} />
              </button>
            </h3>
            <div id={panelId} hidden={!expanded} className="px-5 pb-5 text-sm leading-6 text-gray-600">
              {item.answer}
            </div>
          </li>
        )
      })}
    </ul>
  )
}
