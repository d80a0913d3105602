/**
 * A card's list of things that take a row each (the API keys, the pending invitations): what it is over a line of
 * detail, its action at the end of the row; a line saying there is none while the list is empty.
 */
import type { ReactNode } from "react"

interface Row {
  key: string
  name: ReactNode
  detail: ReactNode
  action: ReactNode
}

interface RowListProps<Item> {
  /** The list's accessible name, e.g. "Your API keys". */
  label: string
  items: readonly Item[]
  /** Said instead of the list when it is empty. */
  empty: string
  row: (item: Item) => Row
  /** For names that are one long word (an e-mail address): they break anywhere rather than overflow the row. */
  breakNames?: boolean
}

export function RowList<Item>({ label, items, empty, row, breakNames = false }: RowListProps<Item>) {
  if (items.length === 0) return <p className="text-gray-600">{empty}</p>
  return (
    <ul aria-label={label} className="divide-y divide-gray-100 rounded-xl border border-gray-200">
      {items.map(row).map(({ key, name, detail, action }) => (
        <li key={key} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <p className={breakNames ? "break-all font-medium" : "font-medium"}>{name}</p>
            <p className="text-gray-600">{detail}</p>
          </div>
          {action}
        </li>
      ))}
    </ul>
  )
}
