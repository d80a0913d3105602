/**
 * The plan an account has, read in one place: the quota, the user object the API answers (and with it the site's
 * header) and the billing routes all ask planOf. users.plan_id and subscription_status are written with every change of
 * the account's subscription record (subscription-changes.ts), so reading the plan costs no query.
 */
import { effectivePlanOf } from "~core/billing/billing"
import { getPlan, type PlanId } from "~core/billing/plans"

import type { UserRow } from "../auth/user-store"
import type { AppConfig } from "../config"
import type { SettleOptions } from "./subscription-rules"

export function planOf(user: Pick<UserRow, "plan_id" | "subscription_status">): PlanId {
  return effectivePlanOf(user.plan_id, user.subscription_status)
}

/** Whether this subscriber's plan funds an organisation's pool (and what comes with it: SCIM, webhooks): Enterprise. */
export const fundsPool = (subscriber: Pick<UserRow, "plan_id" | "subscription_status">) => planOf(subscriber) === "enterprise"

/** The account's monthly AI request limit: null is unlimited (Pro; Enterprise while an admin has set none). */
export function monthlyLimitOf(user: Pick<UserRow, "plan_id" | "subscription_status" | "request_limit">): number | null {
  const limit = getPlan(planOf(user)).requestLimit
  switch (limit.kind) {
    case "monthly":
      return limit.requests
    case "unlimited":
      return null
    case "custom":
      return user.request_limit
  }
}

/** How time-bound changes go on this server: test-mode records renew only while it runs in test mode. */
export const settleOptionsOf = (config: Pick<AppConfig, "billingMode">): SettleOptions => ({ testRecordsRenew: config.billingMode === "test" })
