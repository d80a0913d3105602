/**
 * What a detector found, as the faces and the objects results show it: "3 faces found" (or what to say when there
 * are none) over the list of what it found, which shows only when there is something in it.
 */
import type { ReactNode } from "react"

import { countOf } from "~core/format"

/** How a result names what its detector finds, and how it lists one. */
export interface FoundKind<Item> {
  /** The section's accessible name, e.g. "Faces found". */
  label: string
  /** The count's words ("3 faces found"), what is said instead when nothing was found, and the count's test id. */
  count: { one: string; many: string; none: string; testId: string }
  /** Numbered (`ol`) where the boxes on the image carry the numbers; the list's accessible name, e.g. "Faces". */
  list: { numbered?: boolean; label: string; className: string; itemClassName?: string }
  /** What a list item says of one thing found. */
  item: (found: Item, index: number) => ReactNode
}

interface FoundListProps<Item> {
  kind: FoundKind<Item>
  items: readonly Item[]
  /** What follows the list whatever the count (e.g. which detector ran). */
  children?: ReactNode
}

export function FoundList<Item>({ kind: { label, count, list, item }, items, children }: FoundListProps<Item>) {
  const List = list.numbered ? "ol" : "ul"
  return (
    <section aria-label={label} className="space-y-2">
      <p className="text-sm font-medium" data-testid={count.testId}>
        {items.length === 0 ? count.none : `${countOf(items.length, count.one, count.many)} found`}
      </p>
      {items.length > 0 && (
        <List className={list.className} aria-label={list.label}>
          {items.map((found, index) => (
            <li key={index} className={list.itemClassName}>
              {item(found, index)}
            </li>
          ))}
        </List>
      )}
      {children}
    </section>
  )
}
