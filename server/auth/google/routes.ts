import type { FastifyInstance } from "fastify"

import { ok } from "~core/api"
import { googleAcceptTermsRequestSchema, googleTokenRequestSchema, linkGoogleRequestSchema } from "~core/auth-schemas"

import { ApiError, parseInput } from "../../http/errors"
import { requireUser } from "../authenticate"
import { refuseExtensionSession, requireProofOfPerson } from "../sign-in-methods"
import { AUTH_RATE_LIMITS } from "../routes"
import { toPublicUser } from "../users"
import { acceptTermsWithGoogle, linkGoogleIdentity, signInWithGoogle } from "./google-accounts"
import { createGoogleIdentityVerifier, firebaseWebConfig, type GoogleIdentity } from "./google-identity"

/** Google sign-in through Firebase: sign-in, sign-up with the terms, linking to a signed-in account. */
export async function googleAuthRoutes(app: FastifyInstance) {
  const verifier = createGoogleIdentityVerifier(app.config.firebase, app.log)
  if (verifier) app.addHook("onClose", async () => verifier.close())

  const verifiedIdentity = async (idToken: string): Promise<GoogleIdentity> => {
    if (!verifier) throw new ApiError(503, "GOOGLE_NOT_CONFIGURED", "Google sign-in is not configured on this server.")
    return verifier.verify(idToken)
  }

  app.get("/api/auth/firebase-config", async () => ok(firebaseWebConfig(app.config.firebase)))

  app.post("/api/auth/google", { config: AUTH_RATE_LIMITS.login }, async (request) => {
    const { idToken } = parseInput(googleTokenRequestSchema, request.body)
    return ok(await signInWithGoogle(app, await verifiedIdentity(idToken)))
  })

  app.post("/api/auth/google/accept-terms", { config: AUTH_RATE_LIMITS.login }, async (request, reply) => {
    const { idToken } = parseInput(googleAcceptTermsRequestSchema, request.body)
    const { created, session } = await acceptTermsWithGoogle(app, await verifiedIdentity(idToken))
    return reply.status(created ? 201 : 200).send(ok(session))
  })

  app.post("/api/auth/link-google", { config: AUTH_RATE_LIMITS.login, preHandler: requireUser }, async (request) => {
    const { idToken, currentPassword } = parseInput(linkGoogleRequestSchema, request.body)
    const identity = await verifiedIdentity(idToken)
    const auth = request.auth!
    refuseExtensionSession(auth)
    await requireProofOfPerson(app, auth, currentPassword, { field: "currentPassword", action: "link Google" })
    const user = await linkGoogleIdentity(app, auth.user, identity)
    return ok({ user: toPublicUser(user) })
  })
}
