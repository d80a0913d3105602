/**
 * POST /api/analyze/ask, POST /api/analyze/translate and GET /api/analyze/usage for a signed-in session (the
 * extension's or the site's): each parses its input and calls the analyze service.
 */
import type { FastifyError, FastifyInstance } from "fastify"

import { ok } from "~core/api"
import { MAX_TRANSLATE_LINES, MAX_TRANSLATE_TEXT_LENGTH, translateRequestSchema } from "~core/translate"
import { MAX_HISTORY_ANSWER_LENGTH, MAX_HISTORY_TURNS, MAX_IMAGE_DATA_URL_LENGTH, MAX_QUESTION_LENGTH, vqaAskRequestSchema } from "~core/vqa"

import { requireUser } from "../auth/authenticate"
import { parseInput } from "../http/errors"
import { analyzeService, type AnalyzeRoutesOptions } from "./analyze-service"
import { imageTooLarge } from "./image"

/** A JSON body holding the largest image as a data URL, the longest question and the longest history, escaped. */
export const ASK_BODY_LIMIT = MAX_IMAGE_DATA_URL_LENGTH + (MAX_HISTORY_TURNS + 1) * (MAX_QUESTION_LENGTH + MAX_HISTORY_ANSWER_LENGTH) * 6 + 16 * 1024

/** A JSON body holding the longest text to translate with every character escaped, and the languages. */
export const TRANSLATE_BODY_LIMIT = MAX_TRANSLATE_TEXT_LENGTH * 6 + MAX_TRANSLATE_LINES * 4 + 1024

/** A body too large to parse can only be an oversized image: answer it like one. */
export function oversizedBodyAsImage(error: FastifyError): never {
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw imageTooLarge()
  throw error
}

export async function analyzeRoutes(app: FastifyInstance, options: AnalyzeRoutesOptions = {}): Promise<void> {
  const analyze = analyzeService(app, options)

  app.get("/api/analyze/usage", { preHandler: requireUser }, async (request) => ok(await analyze.usage(request.auth!.user)))

  app.post(
    "/api/analyze/ask",
    // Before the body is read: an anonymous caller must not make us receive and parse up to ASK_BODY_LIMIT bytes.
    { onRequest: requireUser, bodyLimit: ASK_BODY_LIMIT, errorHandler: oversizedBodyAsImage },
    async (request) => ok(await analyze.ask(request.auth!.user, request.log, parseInput(vqaAskRequestSchema, request.body)))
  )

  app.post(
    "/api/analyze/translate",
    // Before the body is read, as for questions.
    { onRequest: requireUser, bodyLimit: TRANSLATE_BODY_LIMIT },
    async (request) => ok(await analyze.translate(request.auth!.user, request.log, parseInput(translateRequestSchema, request.body)))
  )
}
