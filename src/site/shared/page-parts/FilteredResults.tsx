/**
 * The results of a filtered list (blog posts, help articles): their count, announced as a status, then either the
 * matches or a box saying nothing matches, with a way back to all.
 */
import type { ReactNode } from "react"

import { countOf } from "~core/format"
import { buttonStyles } from "~ui/styles"

export interface NoResultsProps {
  title: string
  hint: string
  onClear: () => void
  /** What the list's place adds to the box (space above, a background). */
  className?: string
}

function NoResults({ title, hint, onClear, className }: NoResultsProps) {
  const box = "rounded-2xl border border-dashed border-gray-300 p-10 text-center"
  return (
    <div className={className ? `${className} ${box}` : box}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-2 text-sm text-gray-600">{hint}</p>
      <button type="button" onClick={onClear} className={`mt-6 ${buttonStyles.secondary}`}>
        Clear filters
      </button>
    </div>
  )
}

export interface FilteredResultsProps {
  count: number
  /** The counted thing, singular then plural. */
  nouns: readonly [string, string]
  /** The count's look: shown, or for screen readers only. */
  countClassName: string
  noResults: NoResultsProps
  /** The list of matches, shown when there is at least one. */
  children: ReactNode
}

export function FilteredResults({ count, nouns, countClassName, noResults, children }: FilteredResultsProps) {
  return (
    <>
      <p role="status" className={countClassName}>
        {countOf(count, nouns[0], nouns[1])}
      </p>
      {count === 0 ? <NoResults {...noResults} /> : children}
    </>
  )
}
