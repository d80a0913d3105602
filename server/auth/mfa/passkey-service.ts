/**
 * Passkeys with @simplewebauthn/server: added from the dashboard with the proof of the person, each a sign-in on its
 * own (user verification required, so the device's fingerprint, face or PIN is the second factor). The relying party is
 * the site's host (PUBLIC_URL) and the browser's origin must be the site's. Every challenge is answered once within
 * five minutes; a signature counter that does not grow is refused, and of two answers with the same counter one wins.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON
} from "@simplewebauthn/server"
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers"
import type { FastifyInstance } from "fastify"

import { PRODUCT_NAME } from "~core/company"
import { WEBAUTHN_CHALLENGE_LIFETIME_MS, type Passkey } from "~core/passkeys"

import { recordAuditEvent } from "../../audit/audit-log-store"
import type { Db } from "../../db/transaction"
import { ApiError, notFound } from "../../http/errors"
import { EMAIL_TEMPLATES } from "../../mail/email-templates"
import { queueEmail } from "../../mail/outbox"
import { refuseWhereSsoIsRequired } from "../../organizations/sso/sso-enforcement"
import { signIn } from "../account-service"
import type { Authenticated } from "../authenticate"
import { refuseExtensionSession, requireProofOfPerson } from "../sign-in-methods"
import { hashToken } from "../tokens"
import { findUserById, type UserRow } from "../user-store"
import * as mfaStore from "./mfa-store"
import * as store from "./passkey-store"

type PasskeyRow = NonNullable<Awaited<ReturnType<typeof store.findPasskeyByCredential>>>

/** Who the passkeys are for: the site's host, and the one origin whose pages may use them. */
function relyingParty(app: FastifyInstance) {
  const site = new URL(app.config.publicUrl)
  return { rpID: site.hostname, origin: site.origin }
}

const signInFailed = (message = "That passkey could not sign you in. Please try again.") => new ApiError(401, "PASSKEY_SIGN_IN_FAILED", message)

/** The challenge the browser's answer carries in its client data; a bad answer is a 400, never a 500. */
function answeredChallenge(clientDataJSON: string): string {
  try {
    return decodeClientDataJSON(clientDataJSON).challenge
  } catch {
    throw new ApiError(400, "PASSKEY_INVALID", "The browser's passkey answer could not be read. Please try again.")
  }
}

const toPasskey = (row: { id: string; name: string; created_at: Date; last_used_at: Date | null }): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null
})

export async function listPasskeys(app: FastifyInstance, userId: string) {
  return { passkeys: (await store.listPasskeys(app.database.db, userId)).map(toPasskey) }
}

function tell(app: FastifyInstance, db: Db, user: UserRow, passkeyName: string, change: "added" | "removed") {
  const content = EMAIL_TEMPLATES.passkeyChanged({ name: user.name, passkeyName, change, securityUrl: `${app.config.publicUrl}/dashboard` })
  return queueEmail(app, db, { to: user.email, what: `passkey ${change}`, content })
}

/** The options for navigator.credentials.create(), after the proof of the person; never from the extension. */
export async function registrationOptions(app: FastifyInstance, auth: Authenticated, currentPassword: string | undefined, ip: string | null) {
  refuseExtensionSession(auth)
  await requireProofOfPerson(app, auth, currentPassword, { field: "currentPassword", action: "add a passkey", ip })
  const { rpID } = relyingParty(app)
  const existing = await store.listPasskeys(app.database.db, auth.user.id)
  const options = await generateRegistrationOptions({
    rpName: PRODUCT_NAME,
    rpID,
    userName: auth.user.email,
    userDisplayName: auth.user.name,
    userID: isoUint8Array.fromUTF8String(auth.user.id),
    timeout: WEBAUTHN_CHALLENGE_LIFETIME_MS,
    attestationType: "none",
    // The same authenticator twice would be one passkey under two names.
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: passkey.transports as AuthenticatorTransport[] })),
    // Discoverable, so that /login signs in with no address typed; verified, so that the passkey is both factors.
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" }
  })
  const now = app.clock()
  await store.saveChallenge(app.database.db, options.challenge, "registration", auth.user.id, new Date(now + WEBAUTHN_CHALLENGE_LIFETIME_MS), new Date(now))
  return options
}

/** Saves the passkey the browser made for a challenge of this account; the owner is told by e-mail. */
export async function addPasskey(app: FastifyInstance, auth: Authenticated, input: { name: string; response: RegistrationResponseJSON }, ip: string | null): Promise<Passkey> {
  refuseExtensionSession(auth)
  const challenge = answeredChallenge(input.response.response.clientDataJSON)
  const now = new Date(app.clock())
  const issued = await store.takeChallenge(app.database.db, challenge, "registration", now)
  if (!issued || issued.user_id !== auth.user.id) throw new ApiError(400, "PASSKEY_CHALLENGE_INVALID", "This passkey request has expired. Please add the passkey again.")
  const { rpID, origin } = relyingParty(app)
  const verification = await verifyRegistrationResponse({ response: input.response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true }).catch(
    (error: Error) => {
      throw new ApiError(400, "PASSKEY_INVALID", `The passkey could not be added: ${error.message}`)
    }
  )
  if (!verification.verified) throw new ApiError(400, "PASSKEY_INVALID", "The passkey could not be added: the browser's answer did not verify.")
  const { credential } = verification.registrationInfo
  return app.database.db.transaction().execute(async (trx) => {
    const saved = await store.insertPasskey(
      trx,
      { userId: auth.user.id, credentialId: credential.id, publicKey: isoBase64URL.fromBuffer(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [], name: input.name },
      now
    )
    if (!saved) throw new ApiError(409, "PASSKEY_ALREADY_ADDED", "This passkey is already registered.")
    await recordAuditEvent(trx, { kind: "passkey.added", actorId: auth.user.id, subjectId: auth.user.id, detail: { name: input.name }, ip }, now)
    await tell(app, trx, auth.user, input.name, "added")
    return toPasskey(saved)
  })
}

/** Removes one of the account's passkeys after the proof of the person; the owner is told by e-mail. */
export async function removePasskey(app: FastifyInstance, auth: Authenticated, id: string, currentPassword: string | undefined, ip: string | null) {
  refuseExtensionSession(auth)
  await requireProofOfPerson(app, auth, currentPassword, { field: "currentPassword", action: "remove a passkey", ip })
  const now = new Date(app.clock())
  await app.database.db.transaction().execute(async (trx) => {
    const removed = await store.deletePasskey(trx, auth.user.id, id)
    if (!removed) throw notFound("This passkey does not exist.")
    await recordAuditEvent(trx, { kind: "passkey.removed", actorId: auth.user.id, subjectId: auth.user.id, detail: { name: removed.name }, ip }, now)
    await tell(app, trx, auth.user, removed.name, "removed")
  })
  return { removed: true as const }
}

/** The options for navigator.credentials.get() with no account named: the passkey the person picks names it. */
export async function signInOptions(app: FastifyInstance) {
  const { rpID } = relyingParty(app)
  const options = await generateAuthenticationOptions({ rpID, userVerification: "required", timeout: WEBAUTHN_CHALLENGE_LIFETIME_MS })
  const now = app.clock()
  await store.saveChallenge(app.database.db, options.challenge, "authentication", null, new Date(now + WEBAUTHN_CHALLENGE_LIFETIME_MS), new Date(now))
  return options
}

async function verifiedUse(app: FastifyInstance, passkey: PasskeyRow, response: AuthenticationResponseJSON, challenge: string): Promise<number> {
  const { rpID, origin } = relyingParty(app)
  const credential = { id: passkey.credential_id, publicKey: isoBase64URL.toBuffer(passkey.public_key), counter: Number(passkey.counter), transports: passkey.transports as AuthenticatorTransport[] }
  try {
    const verification = await verifyAuthenticationResponse({ response, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, credential, requireUserVerification: true })
    if (verification.verified) return verification.authenticationInfo.newCounter
  } catch (error) {
    // A counter that did not grow means a copied authenticator: refused, and said so.
    if (/counter/i.test((error as Error).message)) throw signInFailed("This passkey's signature counter went backwards, so it may have been copied. It was refused.")
  }
  throw signInFailed()
}

/**
 * Signs in with a passkey: what login answers. With the `mfaToken` of a sign-in waiting for its second step, the
 * passkey must be that account's, and that step ends with it.
 */
export async function passkeySignIn(app: FastifyInstance, input: { response: AuthenticationResponseJSON; mfaToken?: string }) {
  const db = app.database.db
  const challenge = answeredChallenge(input.response.response.clientDataJSON)
  const now = new Date(app.clock())
  if (!(await store.takeChallenge(db, challenge, "authentication", now))) throw signInFailed("This passkey sign-in has expired. Please try again.")
  const passkey = await store.findPasskeyByCredential(db, input.response.id)
  if (!passkey) throw signInFailed(`This passkey is not registered with ${PRODUCT_NAME}. It may have been removed from your account.`)
  const newCounter = await verifiedUse(app, passkey, input.response, challenge)
  if (!(await store.recordPasskeyUse(db, passkey.id, Number(passkey.counter), newCounter, now))) throw signInFailed()
  const user = await findUserById(db, passkey.user_id)
  if (!user) throw signInFailed()
  if (input.mfaToken !== undefined) {
    const tokenHash = hashToken(input.mfaToken)
    const waiting = await mfaStore.findChallenge(db, tokenHash, now)
    if (waiting?.user_id !== user.id || !(await mfaStore.consumeChallenge(db, tokenHash))) throw signInFailed("This passkey is not one of this account's. Use one you added to it.")
  } else {
    // A passkey on its own is a way in beside the organisation's provider; as the second step, the first step was checked.
    await refuseWhereSsoIsRequired(db, user.email, user.id)
  }
  return signIn(app, user)
}
