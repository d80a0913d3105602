/** /api/keys: a signed-in owner's personal API keys (key-service.ts). */
import type { FastifyInstance } from "fastify"

import { apiKeyUsageQuerySchema, createApiKeySchema } from "~core/api-keys"
import { ok } from "~core/api"

import { requireUser } from "../auth/authenticate"
import { parseInput } from "../http/errors"
import { apiKeyService } from "./key-service"

export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  const keys = apiKeyService(app)

  app.get("/api/keys", { preHandler: requireUser }, async (request) => ok(await keys.list(request.auth!)))

  app.get("/api/keys/usage", { preHandler: requireUser }, async (request) => ok(await keys.usage(request.auth!, parseInput(apiKeyUsageQuerySchema, request.query))))

  app.post("/api/keys", { preHandler: requireUser }, async (request, reply) => {
    const input = parseInput(createApiKeySchema, request.body)
    return reply.status(201).send(ok(await keys.create(request.auth!, input, request.ip)))
  })

  app.delete<{ Params: { id: string } }>("/api/keys/:id", { preHandler: requireUser }, async (request) => {
    await keys.revoke(request.auth!, request.params.id, request.ip)
    return ok({ revoked: true })
  })
}
