/** /api/organizations/current/scim-tokens: the organisation's tokens for SCIM provisioning (scim-token-service.ts); each route parses, authorises and calls. */
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { ok } from "~core/api-answer"
import { createdScimTokenSchema, MAX_SCIM_TOKENS, scimTokenListSchema, scimTokenParamsSchema } from "~core/scim"

import { requireUser } from "../../auth/authenticate"
import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { scimTokenService } from "./scim-token-service"

const tokenDoc = docsTagged("Organizations")
const NOT_MEMBER = { 404: "NOT_FOUND: you are not a member of an organisation (or, to revoke, it has no live token with this id)." }
const OWNER_ONLY = { ...NOT_MEMBER, 403: "FORBIDDEN: only the organisation's owner." }

export async function scimTokenRoutes(app: FastifyInstance) {
  const tokens = scimTokenService(app)

  const listDoc = tokenDoc({ summary: "Your organisation's SCIM tokens", description: "The owner and admins; never the tokens themselves.", data: { 200: scimTokenListSchema }, errors: { ...NOT_MEMBER, 403: "FORBIDDEN: members who do not manage the organisation." } })
  app.get("/api/organizations/current/scim-tokens", { preHandler: requireUser, schema: listDoc }, async (request) => ok(await tokens.list(request.auth!)))

  const createDoc = tokenDoc({
    summary: "Create a SCIM token for your identity provider",
    description: `The owner, of an organisation its Enterprise plan funds. The token is answered this once (only its hash is stored): the identity provider sends it as Authorization: Bearer to /scim/v2. At most ${MAX_SCIM_TOKENS} live at once. Audited.`,
    data: { 201: createdScimTokenSchema },
    errors: { ...OWNER_ONLY, 403: "FORBIDDEN: only the organisation's owner; PLAN_REQUIRED: the organisation's subscription has ended.", 409: `TOO_MANY_SCIM_TOKENS: ${MAX_SCIM_TOKENS} live tokens already.` }
  })
  app.post("/api/organizations/current/scim-tokens", { preHandler: requireUser, schema: createDoc }, async (request, reply) => reply.code(201).send(ok(await tokens.create(request.auth!, request.ip))))

  const revokeDoc = tokenDoc({ summary: "Revoke a SCIM token", description: "The owner. The token stops at once, on every instance. Audited.", params: scimTokenParamsSchema, data: { 200: z.object({ revoked: z.literal(true) }) }, errors: OWNER_ONLY })
  app.delete("/api/organizations/current/scim-tokens/:id", { preHandler: requireUser, schema: revokeDoc }, async (request) => {
    const { id } = parseRequest(request, "params", scimTokenParamsSchema)
    return ok(await tokens.revoke(request.auth!, id, request.ip))
  })
}
