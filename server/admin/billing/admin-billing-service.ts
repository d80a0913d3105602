/**
 * GET /api/admin/billing: who pays for what, the MRR now and 30 days ago, and the subscriptions, failed payments
 * first. Every figure is a subscription record settled as of its instant (a trial or a cancelled period that ended
 * then counts as ended, whether or not anyone has read the account since), priced by src/core/billing/plans.ts through the
 * same rule as the dashboard's overview (subscriptionFigures): monthly prices, yearly ones / 12, trials 0.
 */
import type { FastifyInstance } from "fastify"

import { BILLING_PAGE_SIZE, FAILED_PAYMENT_STATUSES, type AdminBilling, type AdminSubscription } from "~core/admin/admin-analytics"
import { SUBSCRIPTION_STATUSES } from "~core/billing/billing"
import { DAY_MS } from "~core/time"

import type { StripeConfig } from "../../config"
import { settleOptionsOf } from "../../billing/plan"
import { settle, type SubscriptionRecord } from "../../billing/subscription-rules"
import { subscriptionFigures } from "../../billing/subscription-view"
import * as store from "./admin-billing-store"

/** How far back the MRR's change is measured. */
export const MRR_CHANGE_DAYS = 30

const cents = (amount: number) => Math.round(amount * 100) / 100

/** The customer's page in Stripe's dashboard; its test-mode view when the server runs on a test key. */
export function stripeCustomerUrl(stripe: StripeConfig | undefined, record: SubscriptionRecord): string | null {
  if (!stripe || record.provider !== "stripe" || !record.stripe_customer_id) return null
  const testKey = /^(sk|rk)_test_/.test(stripe.secretKey)
  return `https://dashboard.stripe.com/${testKey ? "test/" : ""}customers/${encodeURIComponent(record.stripe_customer_id)}`
}

/** Failed payments first, then live subscriptions, ended ones last. */
const rank = (status: SubscriptionRecord["status"]) => ((FAILED_PAYMENT_STATUSES as readonly string[]).includes(status) ? 0 : status === "canceled" ? 2 : 1)
const periodEndOf = (record: SubscriptionRecord) => (record.current_period_end ?? record.trial_end)?.getTime() ?? Number.POSITIVE_INFINITY

type Listed = Awaited<ReturnType<typeof store.allSubscriptions>>[number]

/** The list's order: by rank, then the period (or trial) that ends soonest; the account id breaks ties, so pages never overlap. */
const listOrder = (a: Listed, b: Listed) =>
  rank(a.record.status) - rank(b.record.status) || periodEndOf(a.record) - periodEndOf(b.record) || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0)

export function adminBillingService(app: FastifyInstance) {
  const db = app.database.db
  const settleAt = (record: SubscriptionRecord, at: Date) => settle(record, at, settleOptionsOf(app.config))

  return {
    async overview(page: number): Promise<AdminBilling> {
      const now = new Date(app.clock())
      const before = new Date(now.getTime() - MRR_CHANGE_DAYS * DAY_MS)
      const [stored, past] = await Promise.all([store.allSubscriptions(db), store.recordsAsOf(db, before)])
      // As of now: a trial or a cancelled period that ended counts as ended whether or not the account was read since.
      const current = stored.map((row) => ({ ...row, record: settleAt(row.record, now) }))
      const figures = subscriptionFigures(current.map((row) => row.record))
      const mrrBefore = subscriptionFigures(past.map((record) => settleAt(record, before))).monthlyRecurringRevenue
      const statuses = Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, 0])) as AdminBilling["statuses"]
      for (const { record } of current) statuses[record.status]++
      const change = cents(figures.monthlyRecurringRevenue - mrrBefore)
      const listed = current.sort(listOrder).slice((page - 1) * BILLING_PAGE_SIZE, page * BILLING_PAGE_SIZE)
      return {
        subscribers: figures.subscribers,
        statuses,
        mrr: {
          currency: "USD",
          now: figures.monthlyRecurringRevenue,
          thirtyDaysAgo: mrrBefore,
          change,
          changePercent: mrrBefore > 0 ? Math.round((change / mrrBefore) * 1000) / 10 : null
        },
        subscriptions: listed.map((row) => toAdminSubscription(app.config.stripe, row)),
        total: current.length,
        page,
        pageSize: BILLING_PAGE_SIZE
      }
    }
  }
}

/** A list row; the plan is the subscription's own (an unpaid one's too, which gives Free meanwhile). */
function toAdminSubscription(stripe: StripeConfig | undefined, { userId, email, name, record }: Listed): AdminSubscription {
  return {
    userId,
    email,
    name,
    plan: record.plan_id,
    interval: record.billing_interval,
    status: record.status,
    // A trial has no period of its own: its end is when it becomes Free or the paid plan.
    periodEnd: (record.current_period_end ?? record.trial_end)?.toISOString() ?? null,
    cancelAtPeriodEnd: record.cancel_at_period_end,
    provider: record.provider,
    stripeCustomerUrl: stripeCustomerUrl(stripe, record)
  }
}
