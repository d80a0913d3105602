/** /api/auth/sso: signing in through an organisation's identity provider (sso-sign-in-service.ts); each route parses and calls. */
import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { ok } from "~core/api-answer"
import { ssoCallbackQuerySchema, ssoCompleteRequestSchema, ssoStartAnswerSchema, ssoStartRequestSchema } from "~core/organization-sso"
import { signInAnswerSchema } from "~core/two-step"

import { AUTH_RATE_LIMITS } from "../../auth/routes"
import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { ssoSignInService } from "./sso-sign-in-service"

const accounts = docsTagged("Accounts")

export async function ssoSignInRoutes(app: FastifyInstance) {
  const sso = ssoSignInService(app)

  const startDoc = accounts({
    summary: "Start signing in with your organisation's identity provider (SSO)",
    description: "For an address on a verified domain of an organisation with single sign-on: the provider's address to send the browser to (authorization code flow with PKCE, state and nonce).",
    body: ssoStartRequestSchema,
    data: { 200: ssoStartAnswerSchema },
    errors: { 404: "SSO_NOT_CONFIGURED: no organisation has verified this address's domain and set up single sign-on.", 503: "SSO_UNAVAILABLE: the provider could not be reached." }
  })
  app.post("/api/auth/sso/start", { config: AUTH_RATE_LIMITS.login, schema: startDoc }, async (request) => ok(await sso.start(parseRequest(request, "body", ssoStartRequestSchema).email)))

  const callbackDoc = accounts({
    summary: "Where the identity provider sends the person back",
    description:
      "Checks the state (taken once), the ID token (issuer, audience, expiry, nonce, signature) and the address (verified, on the organisation's domain), makes or joins the account, then redirects to /login/sso#code=… (a one-time code for /api/auth/sso/complete), or to /login/sso#error=<reason>.",
    querystring: ssoCallbackQuerySchema,
    answers: { 302: z.null().describe("To the site's /login/sso, with the one-time code or the reason in the fragment.") }
  })
  app.get("/api/auth/sso/callback", { config: AUTH_RATE_LIMITS.login, schema: callbackDoc }, async (request, reply) => {
    parseRequest(request, "querystring", ssoCallbackQuerySchema)
    return reply.redirect(await sso.callback(request.url, request.ip, request.log))
  })

  const completeDoc = accounts({
    summary: "Finish an SSO sign-in with its one-time code",
    description: "The code of /login/sso's fragment, valid 60 seconds and once. Answers exactly what POST /api/auth/login answers, the second step included.",
    body: ssoCompleteRequestSchema,
    data: { 200: signInAnswerSchema },
    errors: { 400: "INVALID_OR_EXPIRED_CODE: the code is unknown, used or older than 60 seconds.", 403: "ACCOUNT_DISABLED: an admin disabled the account." }
  })
  app.post("/api/auth/sso/complete", { config: AUTH_RATE_LIMITS.login, schema: completeDoc }, async (request) => ok(await sso.complete(parseRequest(request, "body", ssoCompleteRequestSchema).code)))
}
