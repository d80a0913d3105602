import type { FastifyInstance } from "fastify"

import { ok } from "~core/api"

import { signIn } from "./account-service"
import { requireUser } from "./authenticate"

/**
 * POST /api/auth/extension-session: the extension trades the site's access token (bearer) for a session of
 * its own, with client "extension" and its own refresh-token family. The site's token is only read here,
 * never stored by the extension, so the site's and the extension's refreshes and logouts never touch each other.
 */
export async function extensionSessionRoutes(app: FastifyInstance) {
  app.post("/api/auth/extension-session", { preHandler: requireUser }, async (request) => {
    return ok(await signIn(app, request.auth!.user, "extension"))
  })
}
