/** What a filtered list (blog posts, help articles) shows when nothing matches: a title, a hint and a way back to all. */
import { buttonStyles } from "~ui/styles"

export interface NoResultsProps {
  title: string
  hint: string
  onClear: () => void
  /** What the list's place adds to the box (space above, a background). */
  className?: string
}

export function NoResults({ title, hint, onClear, className }: NoResultsProps) {
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
