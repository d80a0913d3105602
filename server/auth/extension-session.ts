import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import { sessionAnswerSchema } from "~core/auth-schemas"

import { documented } from "../openapi/route-docs"

import { signInExtension } from "./account-service"
import { requireUser } from "./authenticate"

/**
 * POST /api/auth/extension-session: the extension trades the site's access token (bearer) for a session of
 * its own, with client "extension" and its own refresh-token family. The site's token is only read here, never
 * stored by the extension, so refreshes never touch each other; the extension session belongs to the site session,
 * though: it ends when that one ends, and a new one from the same site session replaces it.
 */
export async function extensionSessionRoutes(app: FastifyInstance) {
  const schema = documented({
    tag: "Accounts",
    summary: "Open the extension's session from a website session",
    description: "The extension's own session and refresh tokens; it ends when the website session ends.",
    data: { 200: sessionAnswerSchema },
    errors: { 403: "FORBIDDEN: the bearer token is not a website session's." }
  })
  app.post("/api/auth/extension-session", { preHandler: requireUser, schema }, async (request) => {
    return ok(await signInExtension(app, request.auth!))
  })
}
