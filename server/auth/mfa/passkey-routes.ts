import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import { sessionAnswerSchema } from "~core/auth-schemas"
import {
  addPasskeyRequestSchema,
  passkeyIdParamsSchema,
  passkeyListSchema,
  passkeyRegistrationOptionsRequestSchema,
  passkeySchema,
  passkeySignInRequestSchema,
  removePasskeyRequestSchema,
  webauthnOptionsSchema
} from "~core/passkeys"
import * as z from "zod"

import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { requireUser } from "../authenticate"
import { AUTH_RATE_LIMITS, PROOF_OF_PERSON } from "../routes"
import { addPasskey, listPasskeys, passkeySignIn, registrationOptions, removePasskey, signInOptions } from "./passkey-service"

const passkeyDoc = docsTagged("Accounts")
const FROM_WEBSITE = "FORBIDDEN: from the extension's session (passkeys are changed on the website)."

/** Passkeys: added, listed and removed from the dashboard; a sign-in on their own from /login. */
export async function passkeyRoutes(app: FastifyInstance) {
  const list = passkeyDoc({ summary: "The account's passkeys", data: { 200: passkeyListSchema } })
  app.get("/api/auth/passkeys", { preHandler: requireUser, schema: list }, async (request) => ok(await listPasskeys(app, request.auth!.user.id)))

  const options = passkeyDoc({
    summary: "Start adding a passkey",
    description: "After the proof of the person: the options for navigator.credentials.create() (a discoverable credential, user verification required), answerable once within 5 minutes.",
    body: passkeyRegistrationOptionsRequestSchema,
    data: { 200: webauthnOptionsSchema },
    errors: { ...PROOF_OF_PERSON, 403: `${PROOF_OF_PERSON[403]} ${FROM_WEBSITE}` }
  })
  app.post("/api/auth/passkeys/registration-options", { preHandler: requireUser, schema: options }, async (request) => {
    const { currentPassword } = parseRequest(request, "body", passkeyRegistrationOptionsRequestSchema)
    return ok(await registrationOptions(app, request.auth!, currentPassword, request.ip))
  })

  const add = passkeyDoc({
    summary: "Add the passkey the browser made",
    description: "With the browser's answer to the registration options. The owner is told by e-mail.",
    body: addPasskeyRequestSchema,
    data: { 201: passkeySchema },
    errors: { 400: "PASSKEY_INVALID: the answer did not verify; PASSKEY_CHALLENGE_INVALID: its options expired or were used.", 403: FROM_WEBSITE, 409: "PASSKEY_ALREADY_ADDED." }
  })
  app.post("/api/auth/passkeys", { preHandler: requireUser, schema: add }, async (request, reply) => {
    const input = parseRequest(request, "body", addPasskeyRequestSchema)
    return reply.code(201).send(ok(await addPasskey(app, request.auth!, input, request.ip)))
  })

  const remove = passkeyDoc({
    summary: "Remove a passkey",
    description: "After the proof of the person. The owner is told by e-mail.",
    params: passkeyIdParamsSchema,
    body: removePasskeyRequestSchema,
    data: { 200: z.object({ removed: z.literal(true) }) },
    errors: { ...PROOF_OF_PERSON, 403: `${PROOF_OF_PERSON[403]} ${FROM_WEBSITE}`, 404: "NOT_FOUND: the account has no such passkey." }
  })
  app.delete("/api/auth/passkeys/:id", { preHandler: requireUser, schema: remove }, async (request) => {
    const { id } = parseRequest(request, "params", passkeyIdParamsSchema)
    // An account without a password sends no body: its proof is a recent sign-in.
    const { currentPassword } = parseRequest(request, "body", removePasskeyRequestSchema, request.body ?? {})
    return ok(await removePasskey(app, request.auth!, id, currentPassword, request.ip))
  })

  const signInOptionsDoc = passkeyDoc({
    summary: "Start signing in with a passkey",
    description: "The options for navigator.credentials.get() with no account named (discoverable credentials), answerable once within 5 minutes.",
    data: { 200: webauthnOptionsSchema }
  })
  app.post("/api/auth/passkeys/authentication-options", { config: AUTH_RATE_LIMITS.login, schema: signInOptionsDoc }, async () => ok(await signInOptions(app)))

  const signIn = passkeyDoc({
    summary: "Sign in with a passkey",
    description:
      "With the browser's answer to the authentication options: answers what a sign-in answers, the passkey counting as both factors. With the mfaToken of a sign-in waiting for its second step, the passkey must be that account's.",
    body: passkeySignInRequestSchema,
    data: { 200: sessionAnswerSchema },
    errors: {
      400: "PASSKEY_INVALID: the answer could not be read.",
      401: "PASSKEY_SIGN_IN_FAILED: unknown or removed passkey, expired options, a signature that does not verify, or a counter that went backwards.",
      403: "ACCOUNT_DISABLED."
    }
  })
  app.post("/api/auth/passkeys/sign-in", { config: AUTH_RATE_LIMITS.login, schema: signIn }, async (request) => {
    const input = parseRequest(request, "body", passkeySignInRequestSchema)
    return ok(await passkeySignIn(app, input))
  })
}
