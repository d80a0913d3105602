/**
 * What a detector found, as the faces and the objects results show it: "3 faces found" (or what to say when there
 * are none) over the list of what it found, which shows only when there is something in it.
 */
import type { ReactNode } from "react"

import { countOf } from "~core/format"

export interface FoundListProps {
  /** The section's accessible name, e.g. "Faces found". */
  label: string
  count: number
  one: string
  many: string
  /** Said instead of the count when nothing was found. */
  none: string
  /** The count's test id. */
  testId: string
  /** The list of what was found, rendered only when `count` is above 0. */
  list: ReactNode
  /** What follows the list whatever the count (e.g. which detector ran). */
  children?: ReactNode
}

export function FoundList({ label, count, one, many, none, testId, list, children }: FoundListProps) {
  return (
    <section aria-label={label} className="space-y-2">
      <p className="text-sm font-medium" data-testid={testId}>
        {count === 0 ? none : `${countOf(count, one, many)} found`}
      </p>
      {count > 0 && list}
      {children}
    </section>
  )
}
