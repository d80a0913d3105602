import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import {
  firebaseWebConfigSchema,
  googleAcceptTermsRequestSchema,
  googleTokenRequestSchema,
  linkGoogleRequestSchema,
  sessionAnswerSchema,
  userAnswerSchema
} from "~core/auth-schemas"
import { signInAnswerSchema } from "~core/two-step"

import { ApiError } from "../../http/errors"
import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { requireUser } from "../authenticate"
import { refuseExtensionSession, requireProofOfPerson } from "../sign-in-methods"
import { AUTH_RATE_LIMITS } from "../routes"
import { toPublicUser } from "../user-store"
import { acceptTermsWithGoogle, linkGoogleIdentity, signInWithGoogle } from "./google-account-store"
import { createGoogleIdentityVerifier, firebaseWebConfig, type GoogleIdentity } from "./google-identity"

const google = docsTagged("Google sign-in")

/** The refusals of every call that verifies a Google ID token. */
const TOKEN_REFUSALS = {
  401: "INVALID_TOKEN: the ID token is not a valid, current Firebase token of this project.",
  503: "GOOGLE_NOT_CONFIGURED: this server has no Firebase project; SERVICE_UNAVAILABLE: Google's keys cannot be read now."
}

/** Google sign-in through Firebase: sign-in, sign-up with the terms, linking to a signed-in account. */
export async function googleAuthRoutes(app: FastifyInstance) {
  const verifier = await createGoogleIdentityVerifier(app.config.firebase, app.log)
  if (verifier) app.addHook("onClose", async () => verifier.close())

  const verifiedIdentity = async (idToken: string): Promise<GoogleIdentity> => {
    if (!verifier) throw new ApiError(503, "GOOGLE_NOT_CONFIGURED", "Google sign-in is not configured on this server.")
    return verifier.verify(idToken)
  }

  const firebaseConfig = google({ summary: "The web client's Firebase settings", description: "Public values, read at run time; enabled is false when Google sign-in is not configured.", data: { 200: firebaseWebConfigSchema } })
  app.get("/api/auth/firebase-config", { schema: firebaseConfig }, async () => ok(firebaseWebConfig(app.config.firebase)))

  const signIn = google({
    summary: "Sign in with a Google ID token",
    description: "For a known Google user. A new one is answered TERMS_NOT_ACCEPTED and signs up through accept-terms.",
    body: googleTokenRequestSchema,
    data: { 200: signInAnswerSchema },
    errors: {
      ...TOKEN_REFUSALS,
      403: "TERMS_NOT_ACCEPTED: a new Google user, who must accept the terms first; EMAIL_NOT_VERIFIED: Google has not verified the address; ACCOUNT_DISABLED: an admin disabled the account.",
      409: "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL: the address belongs to another account."
    }
  })
  app.post("/api/auth/google", { config: AUTH_RATE_LIMITS.login, schema: signIn }, async (request) => {
    const { idToken } = parseRequest(request, "body", googleTokenRequestSchema)
    return ok(await signInWithGoogle(app, await verifiedIdentity(idToken)))
  })

  const acceptTerms = google({
    summary: "Sign up with Google, accepting the terms",
    description: "Creates the account (201) and signs in; a Google user already known just signs in (200).",
    body: googleAcceptTermsRequestSchema,
    data: { 200: signInAnswerSchema, 201: sessionAnswerSchema },
    errors: {
      ...TOKEN_REFUSALS,
      403: "EMAIL_NOT_VERIFIED: Google has not verified the address; ACCOUNT_DISABLED: an admin disabled the account.",
      409: "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL: the address belongs to another account."
    }
  })
  app.post("/api/auth/google/accept-terms", { config: AUTH_RATE_LIMITS.login, schema: acceptTerms }, async (request, reply) => {
    const { idToken } = parseRequest(request, "body", googleAcceptTermsRequestSchema)
    const { created, session } = await acceptTermsWithGoogle(app, await verifiedIdentity(idToken), request.ip)
    return reply.status(created ? 201 : 200).send(ok(session))
  })

  const link = google({
    summary: "Link a Google account to the signed-in account",
    description: "With the current password, where the account has one.",
    body: linkGoogleRequestSchema,
    data: { 200: userAnswerSchema },
    errors: {
      ...TOKEN_REFUSALS,
      400: "INVALID_CREDENTIALS: the current password is wrong.",
      403: "FORBIDDEN from the extension's session; REAUTHENTICATION_REQUIRED when an account without a password signed in too long ago.",
      409: "PROVIDER_ALREADY_LINKED: the account has a Google account already; CREDENTIAL_ALREADY_IN_USE: this Google account belongs to another."
    }
  })
  app.post("/api/auth/link-google", { config: AUTH_RATE_LIMITS.login, preHandler: requireUser, schema: link }, async (request) => {
    const { idToken, currentPassword } = parseRequest(request, "body", linkGoogleRequestSchema)
    const identity = await verifiedIdentity(idToken)
    const auth = request.auth!
    refuseExtensionSession(auth)
    await requireProofOfPerson(app, auth, currentPassword, { field: "currentPassword", action: "link Google", ip: request.ip })
    const user = await linkGoogleIdentity(app, auth.user, identity, request.ip)
    return ok({ user: toPublicUser(user) })
  })
}
