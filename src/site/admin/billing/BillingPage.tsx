/**
 * /admin/billing: who pays for what. Subscribers per plan and status, the MRR and its change over 30 days (from the
 * recorded history of subscriptions), and the subscriptions, 50 a page, failed payments first and marked; a Stripe
 * subscription links to its customer in Stripe's dashboard (a new tab). Loading and failures are said in words.
 */
import { useState } from "react"
import { Link } from "react-router"

import { BILLING_PAGE_SIZE, type AdminBilling, type AdminSubscription } from "~core/admin/admin-analytics"
import { SUBSCRIPTION_STATUSES } from "~core/billing/billing"
import { DataTable, type DataColumn } from "~site/shared/DataTable"
import { figure } from "~site/shared/daily-figures"
import { QueryStatus } from "~site/shared/LoadFailure"
import { PageTitle } from "~site/shared/PageTitle"
import { buttonStyles } from "~ui/styles"

import { useAdminBilling } from "./billing-requests"
import { isFailedPayment, money, planName, shortDate, signedMoney, STATUS_LABELS } from "./billing-view"

const CARD = "rounded-2xl border border-gray-200 bg-white p-4 shadow-sm sm:p-6"

function Figures({ billing }: { billing: AdminBilling }) {
  const { mrr, subscribers, statuses } = billing
  const trend = mrr.change > 0 ? "text-green-700" : mrr.change < 0 ? "text-red-700" : "text-gray-600"
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <div className={CARD}>
        <dt className="text-sm font-medium text-gray-600">Monthly recurring revenue</dt>
        <dd className="mt-1 text-3xl font-bold tabular-nums">{money(mrr.now)}</dd>
        <dd className={`mt-1 text-sm ${trend}`}>
          {signedMoney(mrr.change)}
          {mrr.changePercent !== null && ` (${mrr.changePercent > 0 ? "+" : ""}${mrr.changePercent}%)`} in 30 days, from {money(mrr.thirtyDaysAgo)}
        </dd>
      </div>
      <div className={CARD}>
        <dt className="text-sm font-medium text-gray-600">Paying subscribers</dt>
        <dd className="mt-1 text-3xl font-bold tabular-nums">{figure(subscribers.pro + subscribers.enterprise)}</dd>
        <dd className="mt-1 text-sm text-gray-600">
          Pro {figure(subscribers.pro)}, Enterprise {figure(subscribers.enterprise)}
        </dd>
      </div>
      <div className={CARD}>
        <dt className="text-sm font-medium text-gray-600">Subscriptions by status</dt>
        <dd className="mt-2">
          <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            {SUBSCRIPTION_STATUSES.map((status) => (
              <li key={status} className="flex justify-between gap-2">
                <span className={isFailedPayment(status) && statuses[status] > 0 ? "font-semibold text-red-700" : "text-gray-700"}>{STATUS_LABELS[status]}</span>
                <span className="font-semibold tabular-nums">{figure(statuses[status])}</span>
              </li>
            ))}
          </ul>
        </dd>
      </div>
    </dl>
  )
}

function StatusBadge({ status }: { status: AdminSubscription["status"] }) {
  if (isFailedPayment(status)) {
    return <span className="inline-flex rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">Payment failed: {STATUS_LABELS[status].toLowerCase()}</span>
  }
  return <span className="text-sm text-gray-700">{STATUS_LABELS[status]}</span>
}

function StripeLink({ subscription }: { subscription: AdminSubscription }) {
  if (!subscription.stripeCustomerUrl) return null
  return (
    <a href={subscription.stripeCustomerUrl} target="_blank" rel="noopener noreferrer" className={`block ${buttonStyles.link}`}>
      Open in Stripe<span className="sr-only"> (customer of {subscription.email}, opens in a new tab)</span>
    </a>
  )
}

const intervalOf = (subscription: AdminSubscription) => (subscription.interval === "year" ? "Yearly" : subscription.interval === "month" ? "Monthly" : "—")
const periodEndOf = (subscription: AdminSubscription) => (subscription.periodEnd ? <time dateTime={subscription.periodEnd}>{shortDate(subscription.periodEnd)}</time> : "—")
const providerOf = (subscription: AdminSubscription) => (subscription.provider === "stripe" ? "Stripe" : "Test mode")

function Cancelled({ subscription }: { subscription: AdminSubscription }) {
  return subscription.cancelAtPeriodEnd ? <span className="block text-xs text-gray-600">Cancelled at period end</span> : null
}

/** The customer; a narrow screen reads the other columns here, under them. */
function CustomerCell({ subscription }: { subscription: AdminSubscription }) {
  return (
    <>
      <span className="block font-medium text-gray-900">{subscription.name}</span>
      <span className="block break-all text-gray-600">{subscription.email}</span>
      <span className="mt-1 block space-y-1 md:hidden" data-narrow-only>
        <StatusBadge status={subscription.status} />
        <Cancelled subscription={subscription} />
        <span className="block text-gray-700">
          {planName(subscription.plan)}, {intervalOf(subscription).toLowerCase()} · ends {periodEndOf(subscription)} · {providerOf(subscription)}
        </span>
        <StripeLink subscription={subscription} />
      </span>
    </>
  )
}

const SUBSCRIPTION_COLUMNS: readonly DataColumn<AdminSubscription>[] = [
  { header: "Customer", cell: (subscription) => <CustomerCell subscription={subscription} /> },
  {
    header: "Plan",
    from: "md",
    cell: (subscription) => (
      <>
        {planName(subscription.plan)}
        <span className="block text-gray-600">{intervalOf(subscription)}</span>
      </>
    )
  },
  {
    header: "Status",
    from: "md",
    cell: (subscription) => (
      <>
        <StatusBadge status={subscription.status} />
        <Cancelled subscription={subscription} />
      </>
    )
  },
  { header: "Period end", from: "md", cellClassName: "whitespace-nowrap text-gray-700", cell: periodEndOf },
  {
    header: "Provider",
    from: "md",
    cellClassName: "text-gray-700",
    cell: (subscription) => (
      <>
        {providerOf(subscription)}
        <StripeLink subscription={subscription} />
      </>
    )
  }
]

function Subscriptions({ billing, page, onPage }: { billing: AdminBilling; page: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(billing.total / BILLING_PAGE_SIZE))
  return (
    <section aria-labelledby="subscriptions-heading" className="rounded-2xl border border-gray-200 bg-white shadow-sm">
      <h2 id="subscriptions-heading" className="border-b border-gray-200 p-3 text-sm font-semibold text-gray-700">
        Subscriptions ({figure(billing.total)})
      </h2>
      <DataTable
        caption="Subscriptions, failed payments first, then by the end of their period"
        columns={SUBSCRIPTION_COLUMNS}
        rows={billing.subscriptions}
        rowKey={(subscription) => subscription.userId}
        rowClassName={(subscription) => (isFailedPayment(subscription.status) ? "bg-red-50" : "")}
        empty="No one has subscribed yet."
      />
      {pages > 1 && (
        <nav aria-label="Pages" className="flex items-center justify-between border-t border-gray-200 p-2 text-sm">
          <button type="button" className={buttonStyles.ghost} disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </button>
          <span className="text-gray-600">
            Page {page} of {pages}
          </span>
          <button type="button" className={buttonStyles.ghost} disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
    </section>
  )
}

export default function BillingPage() {
  const [page, setPage] = useState(1)
  const billing = useAdminBilling(page)
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Billing" />
      <header>
        <Link to="/admin" className={`${buttonStyles.link} text-sm`}>
          ← Admin
        </Link>
        <h1 className="mt-1 text-3xl font-bold tracking-tight">Billing</h1>
        <p className="mt-1 text-gray-600">Subscribers, revenue and subscriptions. Amounts in US dollars; yearly plans count a twelfth of their price a month, trials nothing.</p>
      </header>
      <QueryStatus subject="the billing figures" query={billing} />
      {billing.data && (
        <>
          <Figures billing={billing.data} />
          <Subscriptions billing={billing.data} page={page} onPage={setPage} />
        </>
      )}
    </div>
  )
}
