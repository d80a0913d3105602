import { useState } from "react"
import { Link } from "react-router"

import { useSession } from "~site-session/session-store"
import { COMPANY } from "~core/company"
import { FREE_TRIAL_DAYS } from "~core/billing/plans"
import { ANNUAL_SAVINGS_PERCENT, PLANS } from "~core/billing/plans"
import { Check } from "~ui/icons"
import { buttonStyles } from "~ui/styles"
import { useBillingConfig, useStoredPlanFollows, useSubscription } from "~site/shared/billing/billing-requests"
import { CallToActionBand } from "~site/shared/page-parts/CallToAction"
import { PageSection } from "~site/shared/page-parts/PageSection"
import { useOrganization } from "~site/shared/organization-query"
import { PageTitle } from "~site/shared/PageTitle"

import { FaqAccordion } from "./FaqAccordion"
import { currentPlanIdOf, planAction, priceView, pricingFaq, trialButtonNote, type Billing } from "./pricing"

function BillingToggle({ billing, onChange }: { billing: Billing; onChange: (billing: Billing) => void }) {
  const option = (value: Billing, label: string) => (
    <button
      type="button"
      aria-pressed={billing === value}
      onClick={() => onChange(value)}
      className={`rounded-full px-4 py-2 text-sm font-semibold transition focus-ring focus-visible:outline-offset-2 ${
        billing === value ? "bg-brand-secondary text-white shadow" : "text-gray-700 hover:text-brand-secondary"
      }`}
    >
      {label}
    </button>
  )
  return (
    <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
      <div role="group" aria-label="Billing period" className="inline-flex rounded-full border border-gray-300 bg-white p-1">
        {option("monthly", "Monthly")}
        {option("annual", "Annual")}
      </div>
      <span className="rounded-full bg-emerald-100 px-3 py-1 text-xs font-semibold text-emerald-800">
        Save {ANNUAL_SAVINGS_PERCENT}% with annual billing
      </span>
    </div>
  )
}

export default function PricingPage() {
  const [billing, setBilling] = useState<Billing>("monthly")
  const user = useSession((state) => state.user)
  const subscription = useSubscription()
  // Whether the trial takes a card (Stripe mode) or not (test mode): the FAQ and the trial button say which.
  const mode = useBillingConfig().data?.mode
  useStoredPlanFollows(subscription.data)
  const currentPlanId = currentPlanIdOf(user, subscription.data)
  // Asked only of an Enterprise subscriber, whose card leads to creating (or managing) the organisation.
  const organization = useOrganization({ enabled: currentPlanId === "enterprise" })

  return (
    <>
      <PageTitle title="Pricing" />
      <section className="bg-gradient-to-b from-white to-blue-50 px-4 pb-16 pt-16 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-3xl text-center">
          <h1 className="text-4xl font-bold tracking-tight">Pricing</h1>
          <p className="mt-4 text-lg text-gray-600">
            Start free with local text, face and object analysis. Upgrade when you want more questions answered by the vision model.
          </p>
          <BillingToggle billing={billing} onChange={setBilling} />
        </div>

        <ul className="mx-auto mt-12 grid max-w-6xl gap-6 lg:grid-cols-3">
          {PLANS.map((plan) => {
            const price = priceView(plan, billing)
            const action = planAction(plan, currentPlanId, billing, Boolean(organization.data))
            const headingId = `plan-${plan.id}`
            return (
              <li
                key={plan.id}
                aria-labelledby={headingId}
                className={`relative flex flex-col rounded-2xl border bg-white p-8 shadow-sm ${
                  plan.popular ? "border-brand-primary ring-2 ring-brand-primary" : "border-gray-200"
                }`}
              >
                {plan.popular && (
                  <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-blue-700 px-3 py-1 text-xs font-semibold text-white">
                    Most popular
                  </p>
                )}
                <h2 id={headingId} className="text-xl font-semibold">
                  {plan.name}
                </h2>
                <p className="mt-4 flex items-baseline gap-1">
                  <span className="text-4xl font-bold tracking-tight">${price.perMonth}</span>
                  <span className="text-sm text-gray-600">/month</span>
                </p>
                <p className="mt-1 text-sm text-gray-600">{price.note}</p>
                {billing === "annual" && plan.price > 0 && (
                  <p className="mt-1 text-sm font-medium text-emerald-700">Save {ANNUAL_SAVINGS_PERCENT}%</p>
                )}
                <ul className="mt-6 flex-1 space-y-3 text-sm text-gray-700">
                  {plan.features.map((feature) => (
                    <li key={feature} className="flex gap-2">
                      <Check aria-hidden="true" className="h-5 w-5 shrink-0 text-brand-accent" />
                      {feature}
                    </li>
                  ))}
                </ul>
                {action.to ? (
                  <Link
                    to={action.to}
                    aria-label={`${action.label}: ${plan.name}`}
                    className={`mt-8 ${plan.popular ? buttonStyles.primary : buttonStyles.secondary}`}
                  >
                    {action.label}
                  </Link>
                ) : (
                  <button type="button" disabled aria-label={`${action.label}: ${plan.name}`} className={`mt-8 ${buttonStyles.secondary}`}>
                    {action.label}
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      </section>

      <PageSection
        headingId="pricing-faq-heading"
        title="Frequently asked questions"
        className="bg-white px-4 py-16 sm:px-6 lg:px-8"
        column="mx-auto max-w-3xl"
      >
        <div className="mt-10">
          <FaqAccordion items={pricingFaq(mode)} />
        </div>
      </PageSection>

      <CallToActionBand
        headingId="pricing-cta-heading"
        title={`Try every Pro feature free for ${FREE_TRIAL_DAYS} days`}
        className="bg-brand-secondary px-4 py-16 text-center text-white sm:px-6 lg:px-8"
        primary={{ to: "/register", label: "Start your free trial" }}
        secondary={{ to: "/help", label: "Visit the Help Center" }}
      >
        <p className="mx-auto mt-4 max-w-xl text-gray-300">
          {trialButtonNote(mode)}Need more seats, a custom request limit or an invoice? Write to{" "}
          <a className="font-medium text-white underline" href={`mailto:${COMPANY.contact.sales.email}`}>
            {COMPANY.contact.sales.email}
          </a>
          .
        </p>
      </CallToActionBand>
    </>
  )
}
