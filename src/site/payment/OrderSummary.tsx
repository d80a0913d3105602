import type { ReactNode } from "react"
import { Link } from "react-router"

import { formatRupees } from "~core/billing/payment"
import { ANNUAL_SAVINGS_PERCENT, type Plan } from "~core/billing/plans"
import { Lock } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

export const amountOf = (plan: Plan, annual: boolean) => (annual ? plan.annualPrice : plan.price)

/** The plan, its billing and its price, with the offer of yearly billing; `note` goes under it with a lock. */
export function OrderSummary({ plan, annual, note, children }: { plan: Plan; annual: boolean; note?: ReactNode; children?: ReactNode }) {
  return (
    <aside aria-labelledby="order-summary" className="order-first rounded-2xl border border-gray-200 bg-gray-50 p-6 lg:order-last">
      <h2 id="order-summary" className="text-lg font-semibold">
        Order summary
      </h2>
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-gray-600">Plan</dt>
          <dd className="font-medium">{plan.name}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-gray-600">Billing</dt>
          <dd className="font-medium">{annual ? "Annual" : "Monthly"}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-gray-200 pt-3 text-base">
          <dt className="font-semibold">Total</dt>
          <dd className="font-bold" data-testid="payment-price">
            {formatRupees(amountOf(plan, annual))} / {annual ? "year" : "month"}
          </dd>
        </div>
      </dl>
      {children}
      {!annual && plan.price > 0 && (
        <p className="mt-4 text-sm">
          <Link
            className={buttonStyles.link}
            to={`/payment?plan=${plan.id}&annual=true`}
          >
            Pay yearly and save {ANNUAL_SAVINGS_PERCENT}%
          </Link>
        </p>
      )}
      {note && (
        <p className="mt-4 flex gap-2 text-xs leading-5 text-gray-600">
          <Lock aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
          <span>{note}</span>
        </p>
      )}
    </aside>
  )
}
