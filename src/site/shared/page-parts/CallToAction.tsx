/**
 * What closes a page with a way in: the pair of links (the way in, then the way to read more), also under the
 * landing hero, and the dark band that holds a title, a line of text and that pair (landing and pricing pages).
 */
import type { ReactNode } from "react"
import { Link } from "react-router"

import { buttonStyles } from "~ui/styles"

import { PageSection } from "./PageSection"

/** The second link's look on a dark band, where the light secondary button would glare. */
const ON_DARK_SECONDARY =
  "inline-flex items-center justify-center rounded-lg border border-white/30 px-5 py-2.5 text-sm font-semibold text-white hover:bg-white/10"

export interface PageLink {
  to: string
  label: string
}

export interface CallToActionLinksProps {
  primary: PageLink
  secondary: PageLink
  /** The row's space above it. */
  className: string
  onDark?: boolean
}

export function CallToActionLinks({ primary, secondary, className, onDark = false }: CallToActionLinksProps) {
  return (
    <div className={`${className} flex flex-wrap justify-center gap-4`}>
      <Link to={primary.to} className={buttonStyles.primary}>
        {primary.label}
      </Link>
      <Link to={secondary.to} className={onDark ? ON_DARK_SECONDARY : buttonStyles.secondary}>
        {secondary.label}
      </Link>
    </div>
  )
}

export interface CallToActionBandProps {
  headingId: string
  title: string
  /** The band's colours, padding and alignment. */
  className: string
  /** The centred column inside the band, when it has one. */
  column?: string
  primary: PageLink
  secondary: PageLink
  /** The line of text under the title. */
  children: ReactNode
}

/** The dark band at the foot of a page: its title, its text, then the two links on the dark. */
export function CallToActionBand({ headingId, title, className, column, primary, secondary, children }: CallToActionBandProps) {
  return (
    <PageSection headingId={headingId} title={title} look="callToAction" className={className} column={column}>
      {children}
      <CallToActionLinks className="mt-8" onDark primary={primary} secondary={secondary} />
    </PageSection>
  )
}
