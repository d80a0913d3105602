import { useId, useRef, type ReactNode } from "react"
import { useNavigate } from "react-router"

import { ArrowLeft } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

import { PageTitle } from "../PageTitle"
import type { LegalDocumentContent } from "./legal-content"

type HeadingLevel = 1 | 2 | 3 | 4 | 5
type HeadingTag = "h1" | "h2" | "h3" | "h4" | "h5" | "h6"

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
] as const

/** "2026-11-22" → "22 November 2026", without time zones: the date is a calendar date. */
export function formatLegalDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate)
  const month = match ? MONTHS[Number(match[2]) - 1] : undefined
  if (!match || !month) return isoDate
  return `${Number(match[3])} ${month} ${match[1]}`
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches
}

export interface LegalDocumentProps {
  document: LegalDocumentContent
  /**
   * "page": the document title is the page's heading and a table of contents leads to the sections.
   * "modal": the dialog title is the heading; no table of contents, tighter type.
   */
  variant?: "page" | "modal"
  /** Level of the document title; sections are one level below. Defaults to 1 on a page, 3 in a modal (under the dialog's h2). */
  headingLevel?: HeadingLevel
}

/** Renders the static text of a Terms of Service or Privacy Policy: title, date, intro and titled sections. */
export function LegalDocument({ document: content, variant = "page", headingLevel }: LegalDocumentProps) {
  const baseId = useId()
  const sectionHeadings = useRef<(HTMLElement | null)[]>([])
  const isPage = variant === "page"
  const level = headingLevel ?? (isPage ? 1 : 3)
  const TitleTag = `h${level}` as HeadingTag
  const SectionTag = `h${level + 1}` as HeadingTag
  const titleId = `${baseId}-title`

  // Buttons, not href="#…" links: with hash routing a fragment would be read as a route.
  const goToSection = (index: number) => {
    const heading = sectionHeadings.current[index]
    if (!heading) return
    heading.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth", block: "start" })
    heading.focus({ preventScroll: true })
  }

  return (
    <article aria-labelledby={titleId} className={isPage ? "text-base" : "text-sm"}>
      <TitleTag
        id={titleId}
        className={isPage ? "text-3xl font-bold tracking-tight sm:text-4xl" : "text-lg font-semibold text-brand-secondary"}
      >
        {content.title}
      </TitleTag>
      <p className={isPage ? "mt-2 text-sm text-gray-500" : "mt-1 text-xs text-gray-500"}>
        Last updated: <time dateTime={content.lastUpdated}>{formatLegalDate(content.lastUpdated)}</time>
      </p>
      <p className={`${isPage ? "mt-6" : "mt-3"} leading-relaxed text-gray-700`}>{content.intro}</p>

      {isPage && (
        <nav aria-labelledby={`${baseId}-toc`} className="mt-8 rounded-xl border border-gray-200 bg-white p-5 shadow-sm">
          <h2 id={`${baseId}-toc`} className="text-sm font-semibold uppercase tracking-wide text-gray-500">
            Contents
          </h2>
          <ol className="mt-3 grid list-decimal gap-x-8 gap-y-1 pl-5 text-sm marker:text-gray-400 sm:grid-cols-2">
            {content.sections.map((section, index) => (
              <li key={section.title}>
                <button
                  type="button"
                  onClick={() => goToSection(index)}
                  className="block rounded text-left text-blue-700 underline-offset-2 hover:underline focus-ring focus-visible:outline-offset-2"
                >
                  {section.title}
                </button>
              </li>
            ))}
          </ol>
        </nav>
      )}

      <div className={isPage ? "mt-10 space-y-10" : "mt-5 space-y-5"}>
        {content.sections.map((section, index) => (
          <section key={section.title}>
            <SectionTag
              id={`${baseId}-section-${index + 1}`}
              ref={(element: HTMLHeadingElement | null) => {
                sectionHeadings.current[index] = element
              }}
              tabIndex={isPage ? -1 : undefined}
              className={
                isPage
                  ? "scroll-mt-24 text-xl font-semibold text-brand-secondary focus:outline-none"
                  : "text-base font-semibold text-brand-secondary"
              }
            >
              {section.title}
            </SectionTag>
            <p className={`${isPage ? "mt-3" : "mt-1.5"} leading-relaxed text-gray-700`}>{section.paragraph}</p>
            {section.items && section.items.length > 0 && (
              <ul className={`${isPage ? "mt-3 space-y-2" : "mt-2 space-y-1"} list-disc pl-5 leading-relaxed text-gray-700 marker:text-brand-accent`}>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            )}
          </section>
        ))}
      </div>
    </article>
  )
}

/** A full legal page: document title, Go Back, the document with its table of contents, and what the page adds below it. */
export function LegalPage({ document: content, children }: { document: LegalDocumentContent; children?: ReactNode }) {
  const navigate = useNavigate()
  const goBack = () => {
    // A page opened in a new tab or from a link elsewhere has no history here: go home instead.
    if (window.history.length > 1) void navigate(-1)
    else void navigate("/")
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title={content.title} />
      <button type="button" onClick={goBack} className={`${buttonStyles.ghost} -ml-3 mb-6`}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Go Back
      </button>
      <LegalDocument document={content} variant="page" />
      {children}
    </div>
  )
}
