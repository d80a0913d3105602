import type { FastifyInstance } from "fastify"

import { ok } from "~core/api"
import { requestLimitSchema } from "~core/feedback"

import { planOf } from "../billing/plan"
import { setRequestLimit } from "../billing/request-limits"
import { requireAdmin } from "../auth/authenticate"
import { notFound, parseInput } from "../http/errors"
import { adminOverview } from "./overview"

/** GET /api/admin/overview and PUT /api/admin/users/:id/request-limit. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  app.get("/api/admin/overview", { preHandler: requireAdmin }, async () => ok(await adminOverview(app)))

  app.put<{ Params: { id: string } }>("/api/admin/users/:id/request-limit", { preHandler: requireAdmin }, async (request) => {
    const { limit } = parseInput(requestLimitSchema, request.body)
    const user = await setRequestLimit(app.database.db, request.params.id, limit, app.clock())
    if (!user) throw notFound("This user does not exist.")
    const plan = planOf(user)
    return ok({
      id: user.id,
      email: user.email,
      plan,
      requestLimit: user.request_limit,
      // The limit is what an Enterprise account gets; other plans keep their plan's quota.
      appliesToPlan: plan === "enterprise"
    })
  })
}
