import { COMPANY } from "~core/company"
import { LegalPage } from "~site/shared/legal/LegalDocument"

import { COOKIE_POLICY } from "./cookie-content"

/** The cookie policy: the legal page, plus where to write about cookies. */
export default function CookiesPage() {
  const privacy = COMPANY.contact.privacy.email
  return (
    <LegalPage document={COOKIE_POLICY}>
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
    </LegalPage>
  )
}
