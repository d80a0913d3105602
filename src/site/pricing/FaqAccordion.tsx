/**
 * The pricing page's questions and answers on radix-ui's Accordion (one answer open at a time, arrow keys, Home and
 * End move between the questions). The answers stay in the page while closed, hidden, as they were before radix:
 * the browser's find-in-page and the page's text still hold them, so the open answer is tracked here to hide the rest,
 * and each question names its answer (aria-controls) always, where radix names it only while it is open.
 */
import { Accordion } from "radix-ui"
import { useId, useState } from "react"

import { ChevronDown } from "~ui/icons"

export interface FaqItem {
  question: string
  answer: string
}

/** The question list; an item's value is its question, and "" is radix's value for all closed. */
export function FaqAccordion({ items }: { items: readonly FaqItem[] }) {
  const baseId = useId()
  const [openQuestion, setOpenQuestion] = useState("")
  return (
    <Accordion.Root type="single" collapsible value={openQuestion} onValueChange={setOpenQuestion} asChild>
      <ul className="divide-y divide-gray-200 rounded-2xl border border-gray-200 bg-white">
        {items.map((item, index) => {
          const expanded = openQuestion === item.question
          const answerId = `${baseId}-answer-${index}`
          return (
            <Accordion.Item key={item.question} value={item.question} asChild>
              <li>
                <Accordion.Header>
                  <Accordion.Trigger
                    aria-controls={answerId}
                    className="flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-medium text-brand-secondary hover:bg-gray-50 focus-ring"
                  >
                    {item.question}
                    <ChevronDown aria-hidden="true" className={`h-5 w-5 shrink-0 text-gray-500 transition ${expanded ? "rotate-180" : ""}`} />
                  </Accordion.Trigger>
                </Accordion.Header>
                <Accordion.Content id={answerId} forceMount hidden={!expanded} className="px-5 pb-5 text-sm leading-6 text-gray-600">
                  {item.answer}
                </Accordion.Content>
              </li>
            </Accordion.Item>
          )
        })}
      </ul>
    </Accordion.Root>
  )
}
