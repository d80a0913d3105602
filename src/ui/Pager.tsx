/**
 * Previous / Page n of m / Next under a paged list: one for every admin list. `inCard` sits on a card's bottom edge
 * (ghost buttons behind a rule), `standalone` under a list of its own. Nothing shows for a single page.
 */
import { buttonStyles } from "./styles"

interface PagerProps {
  page: number
  pages: number
  onPage: (page: number) => void
  look?: "inCard" | "standalone"
}

export function Pager({ page, pages, onPage, look = "standalone" }: PagerProps) {
  if (pages <= 1) return null
  const inCard = look === "inCard"
  const buttonClass = inCard ? buttonStyles.ghost : buttonStyles.secondary
  return (
    <nav aria-label="Pages" className={inCard ? "flex items-center justify-between border-t border-gray-200 p-2 text-sm" : "mt-4 flex items-center justify-between gap-2"}>
      <button type="button" className={buttonClass} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="text-sm text-gray-600">
        Page {page} of {pages}
      </span>
      <button type="button" className={buttonClass} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  )
}
