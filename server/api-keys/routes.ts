/** /api/keys: a signed-in owner's personal API keys (key-service.ts). */
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { apiKeySummarySchema, apiKeyUsageQuerySchema, apiKeyUsageSchema, createApiKeySchema, createdApiKeySchema } from "~core/api-keys"
import { confirmationSchema, ok } from "~core/api-answer"

import { requireUser } from "../auth/authenticate"
import { docsTagged, parseRequest } from "../openapi/route-docs"
import { apiKeyService } from "./key-service"

const keysDoc = docsTagged("API keys")
/** Keys are managed from a website session only (key-service.ts). */
const WEBSITE_ONLY = { 403: "FORBIDDEN: from the extension's session; keys are managed on the website only." }

const listDoc = keysDoc({ summary: "The account's active API keys", description: "Newest first, with their last use; never a key itself.", data: { 200: z.array(apiKeySummarySchema) }, errors: WEBSITE_ONLY })
const usageDoc = keysDoc({
  summary: "The account's answered /api/v1 calls per UTC day and endpoint",
  description: "All its keys together, revoked ones included; every day of the range, oldest first and today last.",
  querystring: apiKeyUsageQuerySchema,
  data: { 200: apiKeyUsageSchema },
  errors: WEBSITE_ONLY
})
const createDoc = keysDoc({
  summary: "Create an API key",
  description: "Pro and Enterprise. The key is in this answer only: the server keeps its SHA-256. The owner is e-mailed.",
  body: createApiKeySchema,
  data: { 201: createdApiKeySchema },
  errors: {
    400: "INVALID_CREDENTIALS: the current password is wrong (VALIDATION_FAILED when the account has one and it is missing).",
    403: "PLAN_REQUIRED on Free; FORBIDDEN from the extension's session; REAUTHENTICATION_REQUIRED when an account without a password signed in over 5 minutes ago.",
    409: "KEY_LIMIT_REACHED: the account holds 10 active keys.",
    423: "ACCOUNT_LOCKED: too many wrong passwords (retryAfter in seconds).",
    429: "PROGRESSIVE_DELAY: wait before the next try (retryAfter in seconds)."
  }
})
const revokeDoc = keysDoc({
  summary: "Revoke an API key",
  description: "The key stops on its next call, on every instance. The owner is e-mailed.",
  data: { 200: confirmationSchema("revoked") },
  errors: { ...WEBSITE_ONLY, 404: "NOT_FOUND: the account has no active key with this id." }
})

export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  const keys = apiKeyService(app)

  app.get("/api/keys", { preHandler: requireUser, schema: listDoc }, async (request) => ok(await keys.list(request.auth!)))

  app.get("/api/keys/usage", { preHandler: requireUser, schema: usageDoc }, async (request) => ok(await keys.usage(request.auth!, parseRequest(request, "querystring", apiKeyUsageQuerySchema))))

  app.post("/api/keys", { preHandler: requireUser, schema: createDoc }, async (request, reply) => {
    const input = parseRequest(request, "body", createApiKeySchema)
    return reply.status(201).send(ok(await keys.create(request.auth!, input, request.ip)))
  })

  app.delete<{ Params: { id: string } }>("/api/keys/:id", { preHandler: requireUser, schema: revokeDoc }, async (request) => {
    await keys.revoke(request.auth!, request.params.id, request.ip)
    return ok({ revoked: true })
  })
}
