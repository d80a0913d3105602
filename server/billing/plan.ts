/**
 * The plan an account has, read in one place: the quota, the user object the API answers (and with it the site's
 * header) and the billing routes all ask planOf. users.plan_id and subscription_status are written with every change of
 * the account's subscription record (subscription-changes.ts), so reading the plan costs no query.
 */
import { effectivePlanOf } from "~core/billing"
import type { PlanId } from "~core/plans"

import type { UserRow } from "../auth/users"
import type { AppConfig } from "../config"
import type { SettleOptions } from "./subscription-rules"

export function planOf(user: Pick<UserRow, "plan_id" | "subscription_status">): PlanId {
  return effectivePlanOf(user.plan_id, user.subscription_status)
}

/** How time-bound changes go on this server: test-mode records renew only while it runs in test mode. */
export const settleOptionsOf = (config: Pick<AppConfig, "billingMode">): SettleOptions => ({ testRecordsRenew: config.billingMode === "test" })
