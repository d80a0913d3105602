import fs from "node:fs/promises"
import path from "node:path"

import type { FastifyInstance } from "fastify"

import { ok } from "~core/api"
import { requestLimitSchema, type AdminOverview } from "~core/feedback"

import { requireAdmin } from "../auth/authenticate"
import { countFeedback, UUID } from "../feedback/feedback-service"
import { feedbackImagesDir } from "../feedback/image-store"
import { ApiError, parseInput } from "../http/errors"
import { loadPasswordPolicy } from "../policy/policy-service"

const DAY_MS = 24 * 60 * 60 * 1000
/** "Recent" on the dashboard: new accounts and refused passwords of the last 30 days. */
export const OVERVIEW_WINDOW_DAYS = 30

async function timed(check: () => Promise<unknown>): Promise<{ ok: boolean; latencyMs?: number; message?: string }> {
  const started = performance.now()
  try {
    await check()
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

/** GET /api/admin/overview and PUT /api/admin/users/:id/request-limit. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.db

  app.get("/api/admin/overview", { preHandler: requireAdmin }, async () => {
    const since = new Date(app.clock() - OVERVIEW_WINDOW_DAYS * DAY_MS)
    const [users, violations, policy, feedback] = await Promise.all([
      db
        .selectFrom("users")
        .select((eb) => [
          eb.fn.countAll<string>().as("total"),
          eb.fn.count<string>("id").filterWhere("role", "=", "admin").as("admins"),
          eb.fn.count<string>("id").filterWhere("email_verified_at", "is not", null).as("verified"),
          eb.fn.count<string>("id").filterWhere("created_at", ">=", since).as("recent")
        ])
        .executeTakeFirstOrThrow(),
      db.selectFrom("policy_violations").select((eb) => eb.fn.countAll<string>().as("count")).where("created_at", ">=", since).executeTakeFirstOrThrow(),
      loadPasswordPolicy(app),
      countFeedback(db)
    ])
    const checks = {
      database: await timed(() => app.database.ping()),
      uploads: await timed(async () => {
        const probe = path.join(feedbackImagesDir(app.config.dataDir), `.probe-${process.pid}`)
        await fs.writeFile(probe, "")
        await fs.rm(probe)
      })
    }
    const results = Object.values(checks)
    const overview: AdminOverview = {
      users: { total: Number(users.total), admins: Number(users.admins), verified: Number(users.verified), newLast30Days: Number(users.recent) },
      policies: {
        enabledRules: Object.values(policy.rules).filter((rule) => rule.enabled).length + policy.customRules.filter((rule) => rule.enabled).length,
        customRules: policy.customRules.length
      },
      violations: { last30Days: Number(violations.count) },
      feedback,
      health: { percent: Math.round((results.filter((check) => check.ok).length / results.length) * 100), checks }
    }
    return ok(overview)
  })

  app.put<{ Params: { id: string } }>("/api/admin/users/:id/request-limit", { preHandler: requireAdmin }, async (request) => {
    const { limit } = parseInput(requestLimitSchema, request.body)
    const user = UUID.test(request.params.id)
      ? await db
          .updateTable("users")
          .set({ request_limit: limit, updated_at: new Date(app.clock()) })
          .where("id", "=", request.params.id)
          .returning(["id", "email", "plan_id", "request_limit"])
          .executeTakeFirst()
      : undefined
    if (!user) throw new ApiError(404, "NOT_FOUND", "This user does not exist.")
    return ok({
      id: user.id,
      email: user.email,
      plan: user.plan_id,
      requestLimit: user.request_limit,
      // The limit is what an Enterprise account gets; other plans keep their plan's quota.
      appliesToPlan: user.plan_id === "enterprise"
    })
  })
}
