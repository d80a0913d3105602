/** /api/admin/users: the admin panel's accounts (admin-users-service.ts); each route parses, authorises and calls. */
import type { FastifyInstance, FastifyRequest } from "fastify"

import {
  adminUserDetailSchema,
  adminUserListSchema,
  adminUserParamsSchema,
  adminUsersQuerySchema,
  adminUserUpdateSchema,
  sessionsEndedSchema,
  verificationResentSchema
} from "~core/admin/admin-users"
import { ok } from "~core/api-answer"

import { requireAdmin } from "../../auth/require-admin"
import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { adminUserService, type AdminActor } from "./admin-users-service"

const usersDoc = docsTagged("Admin")
const NO_USER = { 404: "NOT_FOUND: no account has this id." }

const listDoc = usersDoc({
  summary: "Find accounts",
  description: "By a part of the address or name (any case), filtered by plan, role, verification and disabled; 50 a page, newest first by creation or last sign-in.",
  querystring: adminUsersQuerySchema,
  data: { 200: adminUserListSchema }
})
const detailDoc = usersDoc({
  summary: "An account's page",
  description: "Profile, sign-in methods, plan and subscription, this month's usage, live sessions and organisation.",
  params: adminUserParamsSchema,
  data: { 200: adminUserDetailSchema },
  errors: NO_USER
})
const updateDoc = usersDoc({
  summary: "Change an account's role, or disable or enable it",
  description: "Disabling ends its sessions at once and stops its API keys; its sign-in answers ACCOUNT_DISABLED. Audited.",
  params: adminUserParamsSchema,
  body: adminUserUpdateSchema,
  data: { 200: adminUserDetailSchema },
  errors: { ...NO_USER, 409: "LAST_ADMIN: the account is the last enabled admin; make another admin first." }
})
const resendDoc = usersDoc({
  summary: "Send the account a new verification link",
  params: adminUserParamsSchema,
  data: { 200: verificationResentSchema },
  errors: { ...NO_USER, 409: "ALREADY_VERIFIED: the address is verified already." }
})
const endSessionsDoc = usersDoc({
  summary: "End all the account's sessions",
  description: "The website's and the extension's: each asks to sign in again at its next call. Audited.",
  params: adminUserParamsSchema,
  data: { 200: sessionsEndedSchema },
  errors: NO_USER
})

const actorOf = (request: FastifyRequest): AdminActor => ({ adminId: request.auth!.user.id, ip: request.ip })

export async function adminUserRoutes(app: FastifyInstance): Promise<void> {
  const users = adminUserService(app)

  app.get("/api/admin/users", { preHandler: requireAdmin, schema: listDoc }, async (request) => ok(await users.list(parseRequest(request, "querystring", adminUsersQuerySchema))))

  app.get("/api/admin/users/:id", { preHandler: requireAdmin, schema: detailDoc }, async (request) => ok(await users.detail(parseRequest(request, "params", adminUserParamsSchema).id)))

  app.patch("/api/admin/users/:id", { preHandler: requireAdmin, schema: updateDoc }, async (request) => {
    const { id } = parseRequest(request, "params", adminUserParamsSchema)
    return ok(await users.update(actorOf(request), id, parseRequest(request, "body", adminUserUpdateSchema)))
  })

  app.post("/api/admin/users/:id/resend-verification", { preHandler: requireAdmin, schema: resendDoc }, async (request) =>
    ok(await users.resendVerification(actorOf(request), parseRequest(request, "params", adminUserParamsSchema).id))
  )

  app.post("/api/admin/users/:id/end-sessions", { preHandler: requireAdmin, schema: endSessionsDoc }, async (request) =>
    ok(await users.endSessions(actorOf(request), parseRequest(request, "params", adminUserParamsSchema).id))
  )
}
