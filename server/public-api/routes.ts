/**
 * /api/v1: the public API, called with an API key (key-auth.ts). Each answered call of an analysis is counted for
 * GET /api/v1/usage, and the key's last use noted, before its answer goes out; refused calls, calls whose client left
 * before the answer, and /usage are not counted. Questions and translations go through the same analyze service as the extension's, within the plan's
 * quota.
 */
import type { FastifyInstance } from "fastify"

import { ok } from "~core/api"
import { apiUsageSchema, PUBLIC_API_ENDPOINTS, type ApiUsage, type PublicApiEndpoint } from "~core/api-keys"
import { translateRequestSchema } from "~core/analysis/translate"
import { vqaAskRequestSchema } from "~core/analysis/vqa"
import { monthKey } from "~core/time"

import { analyzeService, type AnalyzeRoutesOptions } from "../analyze/analyze-service"
import { ASK_BODY_LIMIT, ASK_DOC, oversizedBodyAsImage, TRANSLATE_BODY_LIMIT, TRANSLATE_DOC } from "../analyze/routes"
import { registerApiKeyCallers, requireApiKey } from "../api-keys/key-auth"
import { KEY_USE_RESOLUTION_MS, touchKey } from "../api-keys/key-store"
import { documented, parseRequest } from "../openapi/route-docs"
import { quotaSourceOf, usedOf } from "../quota/quota-service"
import { visionRoutes, type VisionRoutesOptions } from "./vision-routes"
import { callsOfMonth, countCall } from "./usage-store"

declare module "fastify" {
  interface FastifyContextConfig {
    /** The endpoint an answered call of this route counts as. */
    apiEndpoint?: PublicApiEndpoint
  }
}

export interface PublicApiRoutesOptions {
  analyze?: AnalyzeRoutesOptions
  vision: Omit<VisionRoutesOptions, "analyze">
}

export async function publicApiRoutes(app: FastifyInstance, options: PublicApiRoutesOptions): Promise<void> {
  const analyze = analyzeService(app, options.analyze)
  registerApiKeyCallers(app)
  app.addHook("onSend", async (request, reply, payload) => {
    // A call whose client left got no answer: it is not counted.
    if (!request.apiKey || reply.statusCode >= 400 || request.apiKey.clientLeft.aborted) return payload
    const endpoint = request.routeOptions.config.apiEndpoint
    const now = app.clock()
    if (endpoint) await countCall(app.database.db, { keyId: request.apiKey.key.id, userId: request.apiKey.user.id, at: now, endpoint })
    // The key's row was read for this call: a use noted within the minute needs no write.
    const lastUsed = request.apiKey.key.last_used_at
    if (!lastUsed || now - lastUsed.getTime() >= KEY_USE_RESOLUTION_MS) await touchKey(app.database.db, request.apiKey.key.id, new Date(now))
    return payload
  })

  app.post(
    "/api/v1/ask",
    { onRequest: requireApiKey, bodyLimit: ASK_BODY_LIMIT, errorHandler: oversizedBodyAsImage, config: { apiEndpoint: "ask" }, schema: documented({ tag: "Public API", ...ASK_DOC }) },
    async (request) => ok(await analyze.ask(request.apiKey!.user, request.log, parseRequest(request, "body", vqaAskRequestSchema)))
  )

  app.post(
    "/api/v1/translate",
    { onRequest: requireApiKey, bodyLimit: TRANSLATE_BODY_LIMIT, config: { apiEndpoint: "translate" }, schema: documented({ tag: "Public API", ...TRANSLATE_DOC }) },
    async (request) => ok(await analyze.translate(request.apiKey!.user, request.log, parseRequest(request, "body", translateRequestSchema)))
  )

  const usageDoc = documented({
    tag: "Public API",
    summary: "This month's answered calls by endpoint and key, and the plan's quota",
    description: "Refused calls and /usage itself are not counted. The quota is the plan's monthly questions and translations, which ask and translate draw from.",
    data: { 200: apiUsageSchema }
  })
  app.get("/api/v1/usage", { onRequest: requireApiKey, schema: usageDoc }, async (request) => {
    const { user } = request.apiKey!
    const now = app.clock()
    const month = monthKey(now)
    const rows = await callsOfMonth(app.database.db, user.id, month)
    const byEndpoint = Object.fromEntries(PUBLIC_API_ENDPOINTS.map((endpoint) => [endpoint, 0])) as Record<PublicApiEndpoint, number>
    const byKey = new Map<string, ApiUsage["byKey"][number]>()
    for (const row of rows) {
      byEndpoint[row.endpoint as PublicApiEndpoint] += row.calls
      const entry = byKey.get(row.key_id) ?? { id: row.key_id, prefix: row.prefix, name: row.name, calls: 0 }
      entry.calls += row.calls
      byKey.set(row.key_id, entry)
    }
    // The quota ask and translate draw from: the organisation's pool for a member.
    const source = await quotaSourceOf(app.database.db, user)
    const quota = { used: await usedOf(app.database.db, user.id, source, now), limit: source.limit }
    const usage: ApiUsage = { month, quota, byEndpoint, byKey: [...byKey.values()] }
    return ok(usage)
  })

  // A child plugin: the key's hooks and the counting above apply to its routes too.
  await app.register(visionRoutes, { ...options.vision, analyze: options.analyze })
}
