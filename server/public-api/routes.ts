/**
 * /api/v1: the public API, called with an API key (key-auth.ts). Each answered call of an analysis is counted for
 * GET /api/v1/usage, and the key's last use noted, before its answer goes out; refused calls, calls whose client left
 * before the answer, and /usage are not counted. Questions and translations go through the same vision model service as the extension's, within the plan's
 * quota.
 */
import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import { apiUsageSchema, type PublicApiEndpoint } from "~core/api-keys"
import { translateRequestSchema } from "~core/analysis/translate"
import { vqaAskRequestSchema } from "~core/analysis/vqa"

import { visionModelService, type VisionModelOptions } from "../vision-model/vision-model-service"
import { ASK_BODY_LIMIT, ASK_DOC, oversizedBodyAsImage, TRANSLATE_BODY_LIMIT, TRANSLATE_DOC } from "../vision-model/routes"
import { registerApiKeyCallers, requireApiKey } from "../api-keys/key-auth"
import { documented, parseRequest } from "../openapi/route-docs"
import { localVisionRoutes, type LocalVisionRoutesOptions } from "./local-vision-routes"
import { monthUsage, recordAnsweredCall } from "./usage-service"
import { V1_ASK_EXAMPLE, V1_TRANSLATE_EXAMPLE, V1_USAGE_EXAMPLE } from "./v1-examples"

declare module "fastify" {
  interface FastifyContextConfig {
    /** The endpoint an answered call of this route counts as. */
    apiEndpoint?: PublicApiEndpoint
  }
}

export interface PublicApiRoutesOptions {
  visionModel?: VisionModelOptions
  localVision: Omit<LocalVisionRoutesOptions, "imageDownload">
}

export async function publicApiRoutes(app: FastifyInstance, options: PublicApiRoutesOptions): Promise<void> {
  const visionModel = visionModelService(app, options.visionModel)
  registerApiKeyCallers(app)
  app.addHook("onSend", async (request, reply, payload) => {
    // A call whose client left got no answer: it is not counted.
    if (!request.apiKey || reply.statusCode >= 400 || request.apiKey.clientLeft.aborted) return payload
    await recordAnsweredCall(app, request.apiKey, request.routeOptions.config.apiEndpoint)
    return payload
  })

  app.post(
    "/api/v1/ask",
    { onRequest: requireApiKey, bodyLimit: ASK_BODY_LIMIT, errorHandler: oversizedBodyAsImage, config: { apiEndpoint: "ask" }, schema: documented({ tag: "Public API", ...ASK_DOC, example: V1_ASK_EXAMPLE }) },
    async (request) => ok(await visionModel.ask(request.apiKey!.user, request.log, parseRequest(request, "body", vqaAskRequestSchema)))
  )

  app.post(
    "/api/v1/translate",
    { onRequest: requireApiKey, bodyLimit: TRANSLATE_BODY_LIMIT, config: { apiEndpoint: "translate" }, schema: documented({ tag: "Public API", ...TRANSLATE_DOC, example: V1_TRANSLATE_EXAMPLE }) },
    async (request) => ok(await visionModel.translate(request.apiKey!.user, request.log, parseRequest(request, "body", translateRequestSchema)))
  )

  const usageDoc = documented({
    tag: "Public API",
    summary: "This month's answered calls by endpoint and key, and the plan's quota",
    description: "Refused calls and /usage itself are not counted. The quota is the plan's monthly questions and translations, which ask and translate draw from.",
    data: { 200: apiUsageSchema },
    example: V1_USAGE_EXAMPLE
  })
  app.get("/api/v1/usage", { onRequest: requireApiKey, schema: usageDoc }, async (request) => {
    return ok(await monthUsage(app, request.apiKey!.user))
  })

  // A child plugin: the key's hooks and the counting above apply to its routes too.
  await app.register(localVisionRoutes, { ...options.localVision, imageDownload: options.visionModel })
}
