/**
 * Passkeys (WebAuthn): the requests and answers of /api/auth/passkeys/*. The browser's credential objects travel as
 * the JSON that @simplewebauthn/browser makes of them; these schemas bound their size and shape, and the server's
 * WebAuthn library checks what they say.
 */
import * as z from "zod"

/** What a passkey is called on the dashboard and in e-mails when the person gives it no name. */
export const DEFAULT_PASSKEY_NAME = "Passkey"
export const PASSKEY_NAME_MAX = 60
/** How long a registration or sign-in challenge can be answered. */
export const WEBAUTHN_CHALLENGE_LIFETIME_MS = 5 * 60_000

const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, "must be base64url")

/** What both answers carry: the credential's id (twice, as the browser gives it) and its kind. */
const credential = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown())
}

/** navigator.credentials.create()'s answer as JSON (RegistrationResponseJSON). */
export const registrationResponseSchema = z.object({
  ...credential,
  response: z.object({
    clientDataJSON: base64url(4000),
    attestationObject: base64url(40_000),
    authenticatorData: base64url(40_000).optional(),
    transports: z.array(z.string().max(40)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4000).optional()
  })
})

/** navigator.credentials.get()'s answer as JSON (AuthenticationResponseJSON). */
export const authenticationResponseSchema = z.object({
  ...credential,
  response: z.object({
    clientDataJSON: base64url(4000),
    authenticatorData: base64url(4000),
    signature: base64url(2000),
    userHandle: base64url(400).optional()
  })
})

export const passkeyRegistrationOptionsRequestSchema = z.strictObject({ currentPassword: z.string().max(1024).optional() })
export const addPasskeyRequestSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .max(PASSKEY_NAME_MAX, `A passkey's name has at most ${PASSKEY_NAME_MAX} characters`)
    .transform((name) => name || DEFAULT_PASSKEY_NAME),
  response: registrationResponseSchema
})
/** With the mfaToken of a sign-in waiting for its second step, the passkey must be that account's. */
export const passkeySignInRequestSchema = z.strictObject({ response: authenticationResponseSchema, mfaToken: z.string().trim().min(1).max(200).optional() })
export const removePasskeyRequestSchema = z.strictObject({ currentPassword: z.string().max(1024).optional() })
export const passkeyIdParamsSchema = z.object({ id: z.uuid("Not a passkey id") })

/** PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON, handed to the browser as they are. */
export const webauthnOptionsSchema = z.looseObject({ challenge: z.string() })

export const passkeySchema = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
export type Passkey = z.infer<typeof passkeySchema>
export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) })
