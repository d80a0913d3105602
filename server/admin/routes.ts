import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import { adminOverviewSchema, requestLimitAnswerSchema, requestLimitSchema } from "~core/admin/admin-overview"
import { adminOrganizationSchema, organizationIdParamsSchema } from "~core/organizations"

import { requireAdmin } from "../auth/require-admin"
import { isUuid } from "../db/uuid"
import { notFound } from "../http/errors"
import { docsTagged, parseRequest } from "../openapi/route-docs"
import { adminOrganizationService } from "../organizations/admin-organizations"
import { adminOverview } from "./overview"
import { adminUserService } from "./users/admin-users-service"

const adminDoc = docsTagged("Admin")

/** GET /api/admin/overview, PUT /api/admin/users/:id/request-limit, and an organisation's members and pool limit. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const overview = adminDoc({ summary: "The dashboard's figures: accounts, policy, feedback, billing and health", data: { 200: adminOverviewSchema } })
  app.get("/api/admin/overview", { preHandler: requireAdmin, schema: overview }, async () => ok(await adminOverview(app)))

  const requestLimit = adminDoc({
    summary: "Set an account's monthly request limit",
    description: "What an Enterprise account gets (appliesToPlan); other plans keep their plan's quota. null: unlimited. Audited.",
    body: requestLimitSchema,
    data: { 200: requestLimitAnswerSchema },
    errors: { 404: "NOT_FOUND: no account has this id." }
  })
  const users = adminUserService(app)
  app.put<{ Params: { id: string } }>("/api/admin/users/:id/request-limit", { preHandler: requireAdmin, schema: requestLimit }, async (request) => {
    const { limit } = parseRequest(request, "body", requestLimitSchema)
    // An id that is no uuid names no account: 404, as it always answered.
    const changed = isUuid(request.params.id) ? await users.setRequestLimit({ adminId: request.auth!.user.id, ip: request.ip }, request.params.id, limit) : undefined
    if (!changed) throw notFound("This user does not exist.")
    const { user, plan } = changed
    return ok({
      id: user.id,
      email: user.email,
      plan,
      requestLimit: user.request_limit,
      // The limit is what an Enterprise account gets; other plans keep their plan's quota.
      appliesToPlan: plan === "enterprise"
    })
  })

  const organizations = adminOrganizationService(app)
  const NO_ORGANIZATION = { 404: "NOT_FOUND: no organisation has this id." }
  const readOrganization = adminDoc({
    summary: "An organisation: its subscriber, members and pool",
    params: organizationIdParamsSchema,
    data: { 200: adminOrganizationSchema },
    errors: NO_ORGANIZATION
  })
  app.get("/api/admin/organizations/:id", { preHandler: requireAdmin, schema: readOrganization }, async (request) =>
    ok(await organizations.read(parseRequest(request, "params", organizationIdParamsSchema).id))
  )
  const organizationLimit = adminDoc({
    summary: "Set an organisation's monthly request limit",
    description: "The pool every member's questions, translations and API calls draw from. null: unlimited.",
    params: organizationIdParamsSchema,
    body: requestLimitSchema,
    data: { 200: adminOrganizationSchema },
    errors: NO_ORGANIZATION
  })
  app.put("/api/admin/organizations/:id/request-limit", { preHandler: requireAdmin, schema: organizationLimit }, async (request) => {
    const { id } = parseRequest(request, "params", organizationIdParamsSchema)
    const { limit } = parseRequest(request, "body", requestLimitSchema)
    return ok(await organizations.setLimit(request.auth!.user.id, id, limit, request.ip))
  })
}
