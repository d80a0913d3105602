/** GET /api/admin/analytics: the business's recorded events per day (analytics-service.ts); admins only. */
import type { FastifyInstance } from "fastify"

import { ANALYTICS_MAX_DAYS, analyticsQuerySchema, analyticsSchema } from "~core/admin/admin-analytics"
import { ok } from "~core/api-answer"

import { requireAdmin } from "../../auth/require-admin"
import { documented, parseRequest } from "../../openapi/route-docs"
import { analyticsService } from "./analytics-service"

const analyticsDoc = documented({
  tag: "Admin",
  summary: "Questions, translations, API calls, sign-ups, active users and feedback per day",
  description: `Counted as each happened (UTC days), for the last \`days\` (1 to ${ANALYTICS_MAX_DAYS}, 30 when absent): oldest first, today last, quiet days as zeros. A question or translation counts when the quota counted it; an active user made a signed-in request that day.`,
  querystring: analyticsQuerySchema,
  data: { 200: analyticsSchema }
})

export async function adminAnalyticsRoutes(app: FastifyInstance): Promise<void> {
  const analytics = analyticsService(app)
  app.get("/api/admin/analytics", { preHandler: requireAdmin, schema: analyticsDoc }, async (request) =>
    ok(await analytics.lastDays(parseRequest(request, "querystring", analyticsQuerySchema).days))
  )
}
