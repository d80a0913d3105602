/**
 * The admin panel's business figures (issue 27): GET /api/admin/analytics (recorded events per UTC day) and
 * GET /api/admin/billing (subscribers, MRR and the subscriptions). Shared by the server's routes and the site's pages.
 */
import * as z from "zod"

import { BILLING_INTERVALS, SUBSCRIPTION_STATUSES, type PaidPlanId, type SubscriptionStatus } from "../billing/billing"
import { PLAN_IDS } from "../billing/plans"

/** The analytics page's two ranges; the API takes any number of days up to a year. */
export const ANALYTICS_RANGES = [30, 90] as const
export const ANALYTICS_MAX_DAYS = 365

export const analyticsQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(ANALYTICS_MAX_DAYS).default(30)
})
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>

const count = z.number().int().min(0)

export const analyticsDaySchema = z.object({
  /** The UTC day, "2026-11-27". */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Questions and translations counted against a quota (a call given back is not counted). */
  questions: count,
  translations: count,
  /** Public API calls answered, all keys together. */
  apiCalls: count,
  /** Accounts made: password registrations and Google sign-ups. */
  signUps: count,
  /** Accounts that made a signed-in request that day. */
  activeUsers: count,
  feedback: count
})
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>

export const analyticsSchema = z.object({
  /** Every day of the range, oldest first, today last, days without events as zeros. */
  days: z.array(analyticsDaySchema)
})
export type Analytics = z.infer<typeof analyticsSchema>

/** The figures the analytics page charts, in its order. */
export const ANALYTICS_METRICS = ["questions", "translations", "apiCalls", "signUps", "activeUsers", "feedback"] as const satisfies readonly (keyof AnalyticsDay)[]
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number]

export const ANALYTICS_METRIC_LABELS: Record<AnalyticsMetric, string> = {
  questions: "Questions",
  translations: "Translations",
  apiCalls: "API calls",
  signUps: "Sign-ups",
  activeUsers: "Active users",
  feedback: "Feedback"
}

/** The subscriptions list is paged: one row per account that subscribed, which grows with the business. */
export const BILLING_PAGE_SIZE = 50

export const billingQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1)
})
export type BillingQuery = z.infer<typeof billingQuerySchema>

/** A renewal that failed: shown first, for someone to follow up. */
export const FAILED_PAYMENT_STATUSES = ["past_due", "unpaid"] as const satisfies readonly SubscriptionStatus[]

export const adminSubscriptionSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.enum(PLAN_IDS),
  interval: z.enum(BILLING_INTERVALS).nullable(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** ISO instant the period paid for (or the trial) ends; null when none. */
  periodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  provider: z.enum(["test", "stripe"]),
  /** The customer in Stripe's dashboard (its test-mode view for a test key); null in test mode or without a customer. */
  stripeCustomerUrl: z.string().nullable()
})
export type AdminSubscription = z.infer<typeof adminSubscriptionSchema>

const money = z.number().min(0)

export const adminBillingSchema = z.object({
  /** Paying accounts per paid plan (past due included, trials not). */
  subscribers: z.object({ pro: count, enterprise: count }) satisfies z.ZodType<Record<PaidPlanId, number>>,
  /** Subscriptions per status, ended ones included. */
  statuses: z.object({ trialing: count, active: count, past_due: count, unpaid: count, paused: count, canceled: count }) satisfies z.ZodType<
    Record<SubscriptionStatus, number>
  >,
  /** Monthly recurring revenue in the plans' currency: monthly prices, yearly prices / 12; trials and ended ones 0. */
  mrr: z.object({
    currency: z.literal("USD"),
    now: money,
    thirtyDaysAgo: money,
    /** now − thirtyDaysAgo. */
    change: z.number(),
    /** The change against thirtyDaysAgo, in percent; null when there was none 30 days ago. */
    changePercent: z.number().nullable()
  }),
  /** Failed payments first, then by period end (soonest first). */
  subscriptions: z.array(adminSubscriptionSchema),
  total: count,
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1)
})
export type AdminBilling = z.infer<typeof adminBillingSchema>
