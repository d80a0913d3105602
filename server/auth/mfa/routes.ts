import type { FastifyInstance } from "fastify"

import { ok } from "~core/api-answer"
import { sessionAnswerSchema } from "~core/auth-schemas"
import {
  mfaCodeRequestSchema,
  mfaDisableRequestSchema,
  mfaDisabledAnswerSchema,
  mfaSetupAnswerSchema,
  mfaSetupRequestSchema,
  mfaStatusSchema,
  mfaVerifyRequestSchema,
  recoveryCodesAnswerSchema
} from "~core/two-step"

import { docsTagged, parseRequest } from "../../openapi/route-docs"
import { requireUser } from "../authenticate"
import { AUTH_RATE_LIMITS, PROOF_OF_PERSON } from "../routes"
import { completeSignIn, disableAuthenticator, enableAuthenticator, mfaStatus, replaceRecoveryCodes, setUpAuthenticator } from "./mfa-service"

const twoStep = docsTagged("Accounts")

const FROM_WEBSITE = "FORBIDDEN: from the extension's session (two-step sign-in is changed on the website)."
const WRONG_CODE = "INVALID_CODE: the code is not the app's current one, or was used already."

/**
 * A call that takes a current code of the app and answers new recovery codes (turning two-step sign-in on, replacing
 * the codes): the two differ only in their texts, what they refuse as a conflict (409) and the service they call.
 */
function recoveryCodesRoute(app: FastifyInstance, path: string, doc: { summary: string; description?: string }, conflict: string, action: typeof replaceRecoveryCodes) {
  const schema = twoStep({ ...doc, body: mfaCodeRequestSchema, data: { 200: recoveryCodesAnswerSchema }, errors: { 400: WRONG_CODE, 403: FROM_WEBSITE, 409: conflict } })
  app.post(path, { preHandler: requireUser, schema }, async (request) => {
    const { code } = parseRequest(request, "body", mfaCodeRequestSchema)
    return ok(await action(app, request.auth!, code, request.ip))
  })
}

/** Two-step sign-in with an authenticator app: set up, confirm, replace recovery codes, turn off, and the sign-in's step. */
export async function mfaRoutes(app: FastifyInstance) {
  const status = twoStep({ summary: "Which second factors the account has", data: { 200: mfaStatusSchema } })
  app.get("/api/auth/mfa", { preHandler: requireUser, schema: status }, async (request) => ok(await mfaStatus(app, request.auth!.user.id)))

  const setup = twoStep({
    summary: "Start setting up an authenticator app",
    description: "Answers a new secret, its otpauth:// address and that address as a QR code (SVG, drawn on our server). Two-step sign-in is on once enable confirms a code.",
    body: mfaSetupRequestSchema,
    data: { 200: mfaSetupAnswerSchema },
    errors: { ...PROOF_OF_PERSON, 403: `${PROOF_OF_PERSON[403]} ${FROM_WEBSITE}`, 409: "MFA_ALREADY_ENABLED." }
  })
  app.post("/api/auth/mfa/totp/setup", { preHandler: requireUser, schema: setup }, async (request) => {
    const { currentPassword } = parseRequest(request, "body", mfaSetupRequestSchema)
    return ok(await setUpAuthenticator(app, request.auth!, currentPassword, request.ip))
  })

  const enable = {
    summary: "Turn two-step sign-in on with the app's first code",
    description: "Answers 10 recovery codes, shown once: the server keeps only their hashes. The owner is told by e-mail."
  }
  recoveryCodesRoute(app, "/api/auth/mfa/totp/enable", enable, "MFA_SETUP_REQUIRED, or MFA_ALREADY_ENABLED.", enableAuthenticator)
  recoveryCodesRoute(app, "/api/auth/mfa/recovery-codes", { summary: "Replace all recovery codes" }, "MFA_NOT_ENABLED.", replaceRecoveryCodes)

  const disable = twoStep({
    summary: "Turn two-step sign-in off",
    description: "Needs the proof of the person and a current code; the recovery codes go with it. The owner is told by e-mail.",
    body: mfaDisableRequestSchema,
    data: { 200: mfaDisabledAnswerSchema },
    errors: { ...PROOF_OF_PERSON, 400: `${PROOF_OF_PERSON[400]} ${WRONG_CODE}`, 403: `${PROOF_OF_PERSON[403]} ${FROM_WEBSITE}`, 409: "MFA_NOT_ENABLED." }
  })
  app.post("/api/auth/mfa/totp/disable", { preHandler: requireUser, schema: disable }, async (request) => {
    const input = parseRequest(request, "body", mfaDisableRequestSchema)
    return ok(await disableAuthenticator(app, request.auth!, input, request.ip))
  })

  const verify = twoStep({
    summary: "The second step of a sign-in",
    description:
      "With the mfaToken a sign-in answered and a code of the authenticator app, or a recovery code (used once; the owner is told by e-mail): answers what a sign-in without a second factor answers. The token lives 5 minutes and ends after 5 wrong codes; wrong codes count toward the account's lockout as wrong passwords do.",
    body: mfaVerifyRequestSchema,
    data: { 200: sessionAnswerSchema },
    errors: {
      401: "INVALID_CODE, with remainingAttempts; MFA_TOKEN_INVALID: the sign-in expired, ended, or had 5 wrong codes.",
      423: "ACCOUNT_LOCKED: too many wrong passwords or codes (retryAfter in seconds).",
      429: "PROGRESSIVE_DELAY: wait before the next try (retryAfter in seconds)."
    }
  })
  app.post("/api/auth/mfa/verify", { config: AUTH_RATE_LIMITS.login, schema: verify }, async (request) => {
    const input = parseRequest(request, "body", mfaVerifyRequestSchema)
    return ok(await completeSignIn(app, input, request.ip))
  })
}
