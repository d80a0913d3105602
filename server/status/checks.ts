import fs from "node:fs/promises"
import path from "node:path"

import type { BillingMode } from "~core/billing/billing"
import { PLANS, type Plan } from "~core/billing/plans"
import { FEATURE_FLAGS } from "~core/feature-flags"
import type { ServiceId, ServiceState } from "~core/service-status"
import { withTimeout } from "~core/with-timeout"

import { signAccessToken, verifyAccessToken } from "../auth/tokens"
import type { Database } from "../db/database"

export interface CheckResult {
  status: ServiceState
  message: string
  latencyMs?: number
}

export type ServiceCheck = () => Promise<CheckResult>

/** A check that hangs is as bad as one that fails: the status page must answer quickly either way. */
export const CHECK_TIMEOUT_MS = 3000

/** Services whose failure makes the whole API unusable: GET /api/status then answers 503. */
export const CRITICAL_SERVICES: readonly ServiceId[] = ["database", "authentication"]

const round = (ms: number) => Math.round(ms * 100) / 100

export async function runCheck(check: ServiceCheck, timeoutMs = CHECK_TIMEOUT_MS): Promise<CheckResult> {
  const failed = (): CheckResult => ({ status: "outage", message: "The check failed." })
  try {
    return await withTimeout(check().catch(failed), timeoutMs, `The check did not finish within ${timeoutMs / 1000} s.`)
  } catch (timedOut) {
    return { status: "outage", message: (timedOut as Error).message }
  }
}

/** Website: the server can serve the site, i.e. the web build's index.html is there and readable. */
export function websiteCheck(webRoot: string): ServiceCheck {
  return async () => {
    const started = performance.now()
    try {
      const stat = await fs.stat(path.join(webRoot, "index.html"))
      if (!stat.isFile() || stat.size === 0) throw new Error("empty")
      return { status: "operational", message: "The web site is built and served.", latencyMs: round(performance.now() - started) }
    } catch {
      return { status: "outage", message: "The web site has not been built, so its pages cannot be served." }
    }
  }
}

/** API: this very answer comes from the API, so it is answering; the figure is how long the report took so far. */
export function apiCheck(requestStartedAt: number): ServiceCheck {
  return async () => ({
    status: "operational",
    message: "The API is answering requests.",
    latencyMs: round(performance.now() - requestStartedAt)
  })
}

export function databaseCheck(database: Database): ServiceCheck {
  return async () => {
    try {
      const latencyMs = round(await database.ping())
      return { status: "operational", message: "The database answers queries.", latencyMs }
    } catch {
      return { status: "outage", message: "The database is not reachable." }
    }
  }
}

/** Authentication: an access token signed with the server's key verifies again with the same claims. */
export function authenticationCheck(tokenSecret: string, now: () => number): ServiceCheck {
  return async () => {
    const started = performance.now()
    try {
      const claims = { userId: "status-check", role: "user" as const, sessionId: "status-check" }
      const { token } = await signAccessToken(claims, tokenSecret, now())
      const verified = await verifyAccessToken(token, tokenSecret, now())
      if (verified?.sub !== claims.userId || verified.sid !== claims.sessionId) {
        return { status: "outage", message: "Sign-in tokens cannot be verified." }
      }
      return { status: "operational", message: "Sign-in tokens are signed and verified.", latencyMs: round(performance.now() - started) }
    } catch {
      return { status: "outage", message: "Sign-in tokens cannot be signed." }
    }
  }
}

/**
 * What makes the payment configuration valid: the currency is set, every plan has whole,
 * non-negative prices, paid plans cost something, an annual price is below twelve monthly ones,
 * and plan ids are unique. The message says how payments are taken: through Stripe, or in test mode (no card
 * charged), which is a valid state.
 */
export function paymentConfigurationProblems(plans: readonly Plan[], currency: string): string[] {
  const problems: string[] = []
  if (!/^[A-Z]{3}$/.test(currency)) problems.push(`the currency "${currency}" is not a three-letter code`)
  const ids = new Set<string>()
  for (const plan of plans) {
    if (ids.has(plan.id)) problems.push(`the plan id ${plan.id} appears twice`)
    ids.add(plan.id)
    for (const [field, value] of [["price", plan.price], ["annual price", plan.annualPrice]] as const) {
      if (!Number.isInteger(value) || value < 0) problems.push(`${plan.name}: the ${field} must be a whole, non-negative amount`)
    }
    if (plan.rank > 0 && plan.price <= 0) problems.push(`${plan.name}: a paid plan needs a monthly price`)
    if (plan.price > 0 && plan.annualPrice >= plan.price * 12) problems.push(`${plan.name}: the annual price saves nothing`)
  }
  if (plans.length === 0) problems.push("there are no plans")
  return problems
}

export function paymentCheck(mode: BillingMode, plans: readonly Plan[] = PLANS, currency: string = FEATURE_FLAGS.payments.currency): ServiceCheck {
  return async () => {
    const problems = paymentConfigurationProblems(plans, currency)
    if (problems.length > 0) {
      return { status: "outage", message: `The payment configuration is invalid: ${problems.join("; ")}.` }
    }
    return {
      status: "operational",
      message:
        mode === "stripe"
          ? `Plans and prices are valid (${currency}). Payments are taken by Stripe.`
          : `Plans and prices are valid (${currency}). Payments run in test mode: no card is charged.`
    }
  }
}
