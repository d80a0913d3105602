import { useState } from "react"
import { Link } from "react-router"

import { COMPANY } from "~core/company"
import { SUPPORT_REPLY_HOURS } from "~core/billing/plans"
import { Mail } from "~ui/icons"
import { buttonStyles } from "~ui/styles"
import { FilterChips, type ChipOption } from "~site/shared/page-parts/FilterChips"
import { FilteredResults } from "~site/shared/page-parts/FilteredResults"
import { PageSection } from "~site/shared/page-parts/PageSection"
import { SearchField } from "~site/shared/page-parts/SearchField"
import { PageTitle } from "~site/shared/PageTitle"

import { categoryCounts, filterFaq, HELP_CATEGORIES, HELP_FAQ, type HelpCategory } from "./help-content"

const COUNTS = categoryCounts(HELP_FAQ)

const CATEGORY_CHIPS: readonly ChipOption<HelpCategory>[] = [
  { value: null, label: `All (${HELP_FAQ.length})` },
  ...HELP_CATEGORIES.map((name) => ({ value: name, label: `${name} (${COUNTS[name]})` }))
]

export default function HelpPage() {
  const [query, setQuery] = useState("")
  const [category, setCategory] = useState<HelpCategory | null>(null)
  const results = filterFaq(HELP_FAQ, { query, category })
  const support = COMPANY.contact.support.email
  const clearFilters = () => {
    setQuery("")
    setCategory(null)
  }

  return (
    <>
      <PageTitle title="Help Center" />
      <section className="bg-gradient-to-b from-white to-blue-50 px-4 py-16 text-center sm:px-6 lg:px-8">
        <h1 className="text-4xl font-bold tracking-tight">Help Center</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-gray-600">Answers to common questions about the extension, your account and your plan.</p>
        <SearchField label="Search help articles" value={query} onChange={setQuery} />
      </section>

      <section aria-label="Help articles" className="mx-auto max-w-4xl px-4 py-12 sm:px-6 lg:px-8">
        <FilterChips options={CATEGORY_CHIPS} selected={category} onSelect={setCategory} className="flex flex-wrap gap-2" />

        <FilteredResults
          count={results.length}
          nouns={["article", "articles"]}
          countClassName="mt-6 text-sm text-gray-600"
          noResults={{ title: "No results found", hint: "Try other words, or another category.", className: "mt-4 bg-white", onClear: clearFilters }}
        >
          <ul className="mt-4 space-y-4">
            {results.map((entry) => (
              <li key={entry.question} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
                <p className="text-xs font-semibold uppercase tracking-wide text-emerald-800">{entry.category}</p>
                <h2 className="mt-1 text-lg font-semibold">{entry.question}</h2>
                <p className="mt-2 text-sm leading-6 text-gray-700">{entry.answer}</p>
              </li>
            ))}
          </ul>
        </FilteredResults>
      </section>

      <PageSection
        headingId="support-heading"
        title="Still need help?"
        look="card"
        className="bg-gray-50 px-4 py-16 sm:px-6 lg:px-8"
        column="mx-auto max-w-3xl rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm"
      >
        <p className="mt-3 text-gray-600">Our support team replies within {SUPPORT_REPLY_HOURS} hours.</p>
        <a href={`mailto:${support}`} className={`mt-6 ${buttonStyles.primary}`}>
          <Mail aria-hidden="true" className="h-4 w-4" /> Email {support}
        </a>
        <p className="mt-6 text-sm text-gray-600">
          Comparing plans? See{" "}
          <Link to="/pricing" className="font-medium text-blue-700 hover:underline">
            Pricing
          </Link>
          . The rules of the service are in our{" "}
          <Link to="/terms" className="font-medium text-blue-700 hover:underline">
            Terms of Service
          </Link>
          .
        </p>
      </PageSection>
    </>
  )
}
