
import type { FastifyInstance } from "fastify"

import type { AdminOverview } from "~core/admin/admin-overview"
import { DAY_MS } from "~core/time"

import { countUsers } from "../auth/user-store"
import { liveSubscriptionFigures } from "../billing/billing-service"
import { countFeedback } from "../feedback/feedback-store"
import { countPolicyViolations, loadPasswordPolicy } from "../password-policy/password-policy-store"

/** "Recent" on the dashboard: new accounts and refused passwords of the last 30 days. */
const OVERVIEW_WINDOW_DAYS = 30

async function timed(check: () => Promise<unknown>): Promise<{ ok: boolean; latencyMs?: number; message?: string }> {
  const started = performance.now()
  try {
    await check()
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

/** The admin dashboard's figures: accounts, password policy, refused passwords, feedback and health. */
export async function adminOverview(app: FastifyInstance): Promise<AdminOverview> {
  const db = app.database.db
  const since = new Date(app.clock() - OVERVIEW_WINDOW_DAYS * DAY_MS)
  const [users, violations, policy, feedback, billing] = await Promise.all([
    countUsers(db, since),
    countPolicyViolations(app, since),
    loadPasswordPolicy(app),
    countFeedback(db),
    liveSubscriptionFigures(app)
  ])
  const checks = {
    database: await timed(() => app.database.ping()),
    uploads: await timed(() => app.objectStorage.check())
  }
  const results = Object.values(checks)
  return {
    users: { total: users.total, admins: users.admins, verified: users.verified, newLast30Days: users.createdSince },
    policies: {
      enabledRules: Object.values(policy.rules).filter((rule) => rule.enabled).length + policy.customRules.filter((rule) => rule.enabled).length,
      customRules: policy.customRules.length
    },
    violations: { last30Days: violations },
    feedback,
    billing,
    health: { percent: Math.round((results.filter((check) => check.ok).length / results.length) * 100), checks }
  }
}
