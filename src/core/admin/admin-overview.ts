/**
 * The admin dashboard's figures (GET /api/admin/overview) and an account's request limit (PUT
 * /api/admin/users/:id/request-limit): what the site's admin pages read and send.
 */
import * as z from "zod"

import { PLAN_IDS } from "../billing/plans"
import { countSchema as count, feedbackCountsSchema } from "./feedback"

const healthCheckSchema = z.object({ ok: z.boolean(), latencyMs: z.number().optional(), message: z.string().optional() })

/** GET /api/admin/overview: the admin dashboard's Quick Overview, from real figures. */
export const adminOverviewSchema = z.object({
  users: z.object({ total: count, admins: count, verified: count, newLast30Days: count }),
  policies: z.object({ enabledRules: count, customRules: count }),
  violations: z.object({ last30Days: count }),
  feedback: feedbackCountsSchema,
  billing: z.object({
    subscribers: z.object({ pro: count, enterprise: count }),
    trialing: count,
    pastDue: count,
    monthlyRecurringRevenue: z.number()
  }),
  health: z.object({ percent: z.number(), checks: z.record(z.string(), healthCheckSchema) })
})
export type AdminOverview = z.infer<typeof adminOverviewSchema>

/** PUT /api/admin/users/:id/request-limit: a positive whole number, or null for unlimited. */
export const requestLimitSchema = z.strictObject({
  limit: z.number().int("The limit must be a whole number").positive("The limit must be a positive number").max(10_000_000).nullable()
})

/** The answer of PUT /api/admin/users/:id/request-limit. */
export const requestLimitAnswerSchema = z.object({
  id: z.string(),
  email: z.string(),
  plan: z.enum(PLAN_IDS),
  requestLimit: z.number().int().nullable(),
  /** The limit is what an Enterprise account gets; other plans keep their plan's quota. */
  appliesToPlan: z.boolean()
})
