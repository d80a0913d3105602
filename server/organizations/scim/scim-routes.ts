/**
 * /scim/v2 (RFC 7644): the organisation's identity provider provisions its people here with a SCIM token. Each route
 * parses, authorises and calls (scim-service.ts). Everything under the prefix speaks SCIM, not our API's wrapper:
 * application/scim+json in and out (application/json is taken too), refusals in SCIM's error shape (never a bare
 * 500), and no place in /api/docs: SCIM's reference is the RFC, and its discovery documents are served here.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import type * as z from "zod"

import { SCIM_CONTENT_TYPE, scimListQuerySchema, scimPatchSchema, scimUserParamsSchema, scimUserSchema } from "~core/scim"

import { unavailableServiceError } from "../../db/availability"
import { ApiError } from "../../http/errors"
import { invalidBody, listOf, SCIM_PREFIX, scimErrorBody, ScimError, SERVICE_PROVIDER_CONFIG, USER_RESOURCE_TYPE, USER_SCHEMA_DOCUMENT } from "./scim-protocol"
import { scimService, type ScimCaller } from "./scim-service"
import { scimTokenService } from "./scim-token-service"

/** The routes as "METHOD url", for the API reference's list of what it leaves out (server/openapi). */
export const SCIM_ROUTES = [
  "GET /Users",
  "POST /Users",
  "GET /Users/:id",
  "PUT /Users/:id",
  "PATCH /Users/:id",
  "DELETE /Users/:id",
  "GET /ServiceProviderConfig",
  "GET /ResourceTypes",
  "GET /ResourceTypes/User",
  "GET /Schemas",
  "GET /Schemas/:id"
].map((route) => route.replace(" /", ` ${SCIM_PREFIX}/`))

/** A SCIM body is small: a user, or a few operations. */
const BODY_LIMIT = 64 * 1024

declare module "fastify" {
  interface FastifyRequest {
    scimCaller: ScimCaller | null
  }
}

const send = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type(SCIM_CONTENT_TYPE).send(body)

/** A body, a query or params parsed with its schema; 400 invalidValue (invalidSyntax when the body is no object). */
function parse<T extends z.ZodType>(schema: T, input: unknown, part: "body" | "query" | "params"): z.output<T> {
  if (part === "body" && (typeof input !== "object" || input === null || Array.isArray(input))) throw new ScimError(400, "The body must be a JSON object.", "invalidSyntax")
  const result = schema.safeParse(input)
  if (!result.success) throw invalidBody(result.error)
  return result.data as z.output<T>
}

/** Every refusal in SCIM's shape; a failure of ours is logged and answered 500 in it too. */
function answerError(error: FastifyError | ScimError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ScimError) {
    if (error.retryAfter) void reply.header("retry-after", String(error.retryAfter))
    return send(reply, error.status, scimErrorBody(error.status, error.detail, error.scimType))
  }
  if (error instanceof ApiError) return send(reply, error.statusCode, scimErrorBody(error.statusCode, error.message))
  const unavailable = unavailableServiceError(error)
  if (unavailable) {
    request.log.warn({ service: unavailable.service }, unavailable.message)
    return send(reply.header("retry-after", "5"), 503, scimErrorBody(503, "The service is briefly unavailable. Please try again in a few seconds."))
  }
  const status = typeof error.statusCode === "number" ? error.statusCode : 500
  if (status >= 400 && status < 500) {
    const syntax = error.code?.startsWith("FST_ERR_CTP_") && status === 400
    return send(reply, status, scimErrorBody(status, syntax ? "The body is not valid JSON." : error.message, syntax ? "invalidSyntax" : undefined))
  }
  request.log.error({ err: error }, "a SCIM request failed")
  return send(reply, 500, scimErrorBody(500, "Something went wrong on our side. Please try again."))
}

async function scimProtocolRoutes(scope: FastifyInstance) {
  const users = scimService(scope)
  const tokens = scimTokenService(scope)
  scope.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: "string", bodyLimit: BODY_LIMIT }, scope.getDefaultJsonParser("error", "error"))
  scope.setErrorHandler(answerError)
  scope.decorateRequest("scimCaller", null)

  // Before the body is read: a call without a live token costs one look-up, not a parse.
  const authorise = async (request: FastifyRequest) => {
    request.scimCaller = await tokens.authorise(request)
  }
  const options = { onRequest: authorise, bodyLimit: BODY_LIMIT, schema: { hide: true } }
  const caller = (request: FastifyRequest) => request.scimCaller!

  scope.get("/Users", options, async (request, reply) => send(reply, 200, await users.list(caller(request), parse(scimListQuerySchema, request.query, "query"))))
  scope.post("/Users", options, async (request, reply) => send(reply, 201, await users.create(caller(request), parse(scimUserSchema, request.body, "body"))))
  scope.get("/Users/:id", options, async (request, reply) => send(reply, 200, await users.get(caller(request), parse(scimUserParamsSchema, request.params, "params").id)))
  scope.put("/Users/:id", options, async (request, reply) => {
    const { id } = parse(scimUserParamsSchema, request.params, "params")
    return send(reply, 200, await users.replace(caller(request), id, parse(scimUserSchema, request.body, "body")))
  })
  scope.patch("/Users/:id", options, async (request, reply) => {
    const { id } = parse(scimUserParamsSchema, request.params, "params")
    return send(reply, 200, await users.patch(caller(request), id, parse(scimPatchSchema, request.body, "body").Operations))
  })
  scope.delete("/Users/:id", options, async (request, reply) => {
    await users.remove(caller(request), parse(scimUserParamsSchema, request.params, "params").id)
    return reply.code(204).send()
  })

  // The discovery documents: the same for everyone, so they ask no token (identity providers read them before the first call).
  const open = { schema: { hide: true } }
  scope.get("/ServiceProviderConfig", open, async (_request, reply) => send(reply, 200, SERVICE_PROVIDER_CONFIG))
  scope.get("/ResourceTypes", open, async (_request, reply) => send(reply, 200, listOf([USER_RESOURCE_TYPE])))
  scope.get("/ResourceTypes/User", open, async (_request, reply) => send(reply, 200, USER_RESOURCE_TYPE))
  scope.get("/Schemas", open, async (_request, reply) => send(reply, 200, listOf([USER_SCHEMA_DOCUMENT])))
  scope.get("/Schemas/:id", open, async (request, reply) => {
    const { id } = parse(scimUserParamsSchema, request.params, "params")
    if (id !== USER_SCHEMA_DOCUMENT.id) throw new ScimError(404, "This server has one schema: urn:ietf:params:scim:schemas:core:2.0:User.")
    return send(reply, 200, USER_SCHEMA_DOCUMENT)
  })
}

export async function scimRoutes(app: FastifyInstance) {
  await app.register(scimProtocolRoutes, { prefix: SCIM_PREFIX })
}
