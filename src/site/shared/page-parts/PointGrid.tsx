/**
 * A grid of short points, each a card with a mark, a title and one line of text: the landing page's features and
 * steps, the about page's values. A look sets the card, its title's spacing and its mark (an icon, or the step's number).
 */
import type { ComponentType } from "react"

type Mark = { icon: string } | "number"

const POINT_LOOKS: Record<"feature" | "step" | "value", { card: string; title: string; mark: Mark }> = {
  /** Grey cards on a white band, each with a large brand icon. */
  feature: { card: "rounded-2xl border border-gray-200 bg-gray-50 p-6", title: "mt-4 text-lg font-semibold", mark: { icon: "h-8 w-8 text-brand-primary" } },
  /** White raised cards on a grey band, numbered: an ordered list. */
  step: { card: "rounded-2xl border border-gray-200 bg-white p-6 shadow-sm", title: "mt-4 text-lg font-semibold", mark: "number" },
  /** Flat white cards on a grey band, with a smaller accent icon. */
  value: { card: "rounded-2xl border border-gray-200 bg-white p-6", title: "mt-3 text-lg font-semibold", mark: { icon: "h-7 w-7 text-brand-accent" } }
}

export interface Point {
  title: string
  description: string
  /** The point's icon, for the looks marked by one. */
  Icon?: ComponentType<{ className?: string; "aria-hidden"?: "true" }>
}

export interface PointGridProps {
  look: keyof typeof POINT_LOOKS
  points: readonly Point[]
  /** The grid's columns and space above it. */
  className: string
}

export function PointGrid({ look, points, className }: PointGridProps) {
  const { card, title, mark } = POINT_LOOKS[look]
  const List = mark === "number" ? "ol" : "ul"
  return (
    <List className={className}>
      {points.map((point, index) => (
        <li key={point.title} className={card}>
          {mark === "number" ? (
            <span aria-hidden="true" className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-accent text-lg font-bold text-white">
              {index + 1}
            </span>
          ) : (
            point.Icon && <point.Icon aria-hidden="true" className={mark.icon} />
          )}
          <h3 className={title}>{point.title}</h3>
          <p className="mt-2 text-sm leading-6 text-gray-600">{point.description}</p>
        </li>
      ))}
    </List>
  )
}
