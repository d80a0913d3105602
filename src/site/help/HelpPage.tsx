import { useId, useState } from "react"
import { Link } from "react-router"

import { countOf } from "~core/format"
import { COMPANY } from "~core/company"
import { SUPPORT_REPLY_HOURS } from "~core/limits"
import { Mail, Search } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

import { PageTitle } from "../PageTitle"
import { categoryCounts, filterFaq, HELP_CATEGORIES, HELP_FAQ, type HelpCategory } from "./help-content"

const COUNTS = categoryCounts(HELP_FAQ)

function chipStyles(selected: boolean) {
  return `rounded-full border px-4 py-2 text-sm font-medium transition focus-ring focus-visible:outline-offset-2 ${
    selected ? "border-brand-secondary bg-brand-secondary text-white" : "border-gray-300 bg-white text-gray-700 hover:border-gray-400"
  }`
}

export default function HelpPage() {
  const searchId = useId()
  const [query, setQuery] = useState("")
  const [category, setCategory] = useState<HelpCategory | null>(null)
  const results = filterFaq(HELP_FAQ, { query, category })
  const support = COMPANY.contact.support.email

  return (
    <>
      <PageTitle title="Help Center" />
      <section className="bg-gradient-to-b from-white to-blue-50 px-4 py-16 text-center sm:px-6 lg:px-8">
        <h1 className="text-4xl font-bold tracking-tight">Help Center</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-gray-600">Answers to common questions about the extension, your account and your plan.</p>
        <div className="relative mx-auto mt-8 max-w-xl">
          <label htmlFor={searchId} className="sr-only">
            Search help articles
          </label>
          <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-gray-400" />
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Search help articles"
            className="block w-full rounded-xl border border-gray-300 bg-white py-3 pl-10 pr-3 text-base shadow-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"
          />
        </div>
      </section>

      <section aria-label="Help articles" className="mx-auto max-w-4xl px-4 py-12 sm:px-6 lg:px-8">
        <div role="group" aria-label="Categories" className="flex flex-wrap gap-2">
          <button type="button" aria-pressed={category === null} onClick={() => setCategory(null)} className={chipStyles(category === null)}>
            All ({HELP_FAQ.length})
          </button>
          {HELP_CATEGORIES.map((name) => (
            <button key={name} type="button" aria-pressed={category === name} onClick={() => setCategory(name)} className={chipStyles(category === name)}>
              {name} ({COUNTS[name]})
            </button>
          ))}
        </div>

        <p role="status" className="mt-6 text-sm text-gray-600">
          {countOf(results.length, "article", "articles")}
        </p>

        {results.length === 0 ? (
          <div className="mt-4 rounded-2xl border border-dashed border-gray-300 bg-white p-10 text-center">
            <h2 className="text-lg font-semibold">No results found</h2>
            <p className="mt-2 text-sm text-gray-600">Try other words, or another category.</p>
            <button
              type="button"
              onClick={() => {
                setQuery("")
                setCategory(null)
              }}
              className={`mt-6 ${buttonStyles.secondary}`}
            >
              Clear filters
            </button>
          </div>
        ) : (
          <ul className="mt-4 space-y-4">
            {results.map((entry) => (
              <li key={entry.question} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
                <p className="text-xs font-semibold uppercase tracking-wide text-emerald-800">{entry.category}</p>
                <h2 className="mt-1 text-lg font-semibold">{entry.question}</h2>
                <p className="mt-2 text-sm leading-6 text-gray-700">{entry.answer}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="support-heading" className="bg-gray-50 px-4 py-16 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-3xl rounded-2xl border border-gray-200 bg-white p-8 text-center shadow-sm">
          <h2 id="support-heading" className="text-2xl font-bold tracking-tight">
            Still need help?
          </h2>
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
        </div>
      </section>
    </>
  )
}
