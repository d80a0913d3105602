/**
 * A titled section of a content page (landing, about, pricing, help, blog post, status): the section is named by
 * its h2, so it is a landmark, and the heading's look is one of the few the site uses.
 */
import type { ReactNode } from "react"

const HEADING_LOOKS = {
  /** A band's title, centred over the band's content. */
  band: "text-center text-3xl font-bold tracking-tight",
  /** A call to action's title: its band centres everything already. */
  callToAction: "text-3xl font-bold tracking-tight",
  /** The title of a card-sized section. */
  card: "text-2xl font-bold tracking-tight",
  /** The title over a list on a narrow page. */
  list: "text-xl font-semibold"
} as const

export interface PageSectionProps {
  headingId: string
  title: ReactNode
  look?: keyof typeof HEADING_LOOKS
  /** The section's own id, where a link points at it (e.g. /#features). */
  id?: string
  className?: string
  /** The classes of the column inside a full-width band, when the section has one. */
  column?: string
  children: ReactNode
}

export function PageSection({ headingId, title, look = "band", id, className, column, children }: PageSectionProps) {
  const content = (
    <>
      <h2 id={headingId} className={HEADING_LOOKS[look]}>
        {title}
      </h2>
      {children}
    </>
  )
  return (
    <section id={id} aria-labelledby={headingId} className={className}>
      {column ? <div className={column}>{content}</div> : content}
    </section>
  )
}
