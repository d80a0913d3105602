import { useNavigate } from "react-router"

import { COMPANY } from "~core/company"
import { ArrowLeft } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

import { PageTitle } from "../PageTitle"
import { COOKIE_POLICY } from "./cookie-content"
import { LegalDocument } from "./LegalDocument"

export default function CookiesPage() {
  const navigate = useNavigate()
  const privacy = COMPANY.contact.privacy.email
  const goBack = () => {
    // A page opened in a new tab has no history here: go home instead.
    if (window.history.length > 1) void navigate(-1)
    else void navigate("/")
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title={COOKIE_POLICY.title} />
      <button type="button" onClick={goBack} className={`${buttonStyles.ghost} -ml-3 mb-6`}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Go Back
      </button>
      <LegalDocument document={COOKIE_POLICY} variant="page" />
      <section aria-labelledby="cookie-contact" className="mt-10 rounded-2xl border border-gray-200 bg-gray-50 p-6">
        <h2 id="cookie-contact" className="text-xl font-semibold text-brand-secondary">
          Contact us
        </h2>
        <p className="mt-3 leading-relaxed text-gray-700">
          Questions about cookies or your data? Write to our privacy team at{" "}
          <a href={`mailto:${privacy}`} className="font-medium text-blue-700 underline-offset-2 hover:underline">
            {privacy}
          </a>
          .
        </p>
      </section>
    </div>
  )
}
