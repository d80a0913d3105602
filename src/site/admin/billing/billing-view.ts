/** How the billing page words the subscriptions' figures: statuses, plans, money and dates. */
import { FAILED_PAYMENT_STATUSES } from "~core/admin/admin-analytics"
import type { SubscriptionStatus } from "~core/billing/billing"
import { getPlan, type PlanId } from "~core/billing/plans"

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trialing: "Trial",
  active: "Active",
  past_due: "Past due",
  unpaid: "Unpaid",
  paused: "Paused",
  canceled: "Ended"
}

export const isFailedPayment = (status: SubscriptionStatus) => (FAILED_PAYMENT_STATUSES as readonly string[]).includes(status)

export const planName = (plan: PlanId) => getPlan(plan).name

/** An amount in the plans' currency (USD), to the cent when it has cents: "$1,234.50". */
export const money = (amount: number) =>
  amount.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 })

/** The MRR's change with its sign: "+$63.50", "−$19", "$0". */
export function signedMoney(amount: number): string {
  if (amount === 0) return money(0)
  return `${amount > 0 ? "+" : "−"}${money(Math.abs(amount))}`
}

/** A period's end as the page writes dates: "23 Jan 2027" (UTC, as the server keeps them). */
export const shortDate = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })
