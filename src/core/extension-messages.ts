/**
 * The message protocol between the companion site and the extension, both directions, shared by the site and the
 * extension (pure data: no DOM, Node or extension API here, so the site, the extension and tests share it).
 *
 * Site → extension: WEBSITE_AUTH_LOGIN, WEBSITE_AUTH_LOGOUT and WEBSITE_AUTH_SYNC, each
 * `{ type, payload: { user, tokens }, timestamp }`. The tokens' `expiresAt` is the time, in milliseconds since
 * the epoch, until which the extension may use them: now plus EXTENSION_TOKEN_LIFETIME_MS (1 hour). The site never
 * gives the extension its refresh token: `refreshToken` stays in the payload for the spec's shape and is always null
 * (the extension opens a session of its own and renews that one), and the extension ignores any value it finds there.
 * WEBSITE_AUTH_LOGOUT keeps the same payload keys with `user: null, tokens: null`, so a reader of
 * `message.payload.user` never has to test for a missing payload; it never carries a token.
 *
 * Extension → site: EXTENSION_AUTH_STATUS_REQUEST and EXTENSION_LOGOUT_REQUEST, `{ type, timestamp }`.
 *
 * Each side accepts a message only when it is an object whose `type` is a string starting with the other side's
 * prefix (WEBSITE_ or EXTENSION_) and whose `timestamp` is a finite number: one envelope schema, one set of error
 * texts. Errors are answered `{ success: false, error: message }` (ExtensionAnswer, ./protocol).
 */
import * as z from "zod"

import {
  EXTENSION_MESSAGE_PREFIX,
  WEBSITE_AUTH_LOGIN,
  WEBSITE_AUTH_LOGOUT,
  WEBSITE_AUTH_SYNC,
  WEBSITE_MESSAGE_PREFIX,
  type KnownExtensionMessageType
} from "./extension-message-types"
import { parseWith, type ParseResult } from "./protocol"
import { type Clock, MINUTE_MS } from "./time"
import { type User } from "./user"

export const EXTENSION_TOKEN_LIFETIME_MS = 60 * MINUTE_MS

// The protocol's names live in a module without zod (the Firefox site bridge needs them); re-exported here.
export * from "./extension-message-types"

export interface ExtensionTokens {
  authToken: string
  /** Always null: a refresh token handed over would outlive the site's own session in the extension's hands. */
  refreshToken: null
  /** Milliseconds since the epoch: the time of sending plus one hour. */
  expiresAt: number
}

export interface WebsiteAuthPayload {
  user: User
  tokens: ExtensionTokens
}

export interface WebsiteSignedInMessage {
  type: typeof WEBSITE_AUTH_LOGIN | typeof WEBSITE_AUTH_SYNC
  payload: WebsiteAuthPayload
  timestamp: number
}

export interface WebsiteLogoutMessage {
  type: typeof WEBSITE_AUTH_LOGOUT
  payload: { user: null; tokens: null }
  timestamp: number
}

export type WebsiteMessage = WebsiteSignedInMessage | WebsiteLogoutMessage

/** What the builders need of the browser session: no refresh token, so none can be sent. */
export interface WebsiteSession {
  user: User
  authToken: string
}

function signedIn(type: WebsiteSignedInMessage["type"], session: WebsiteSession, clock: Clock): WebsiteSignedInMessage {
  const now = clock()
  return {
    type,
    payload: {
      user: session.user,
      tokens: { authToken: session.authToken, refreshToken: null, expiresAt: now + EXTENSION_TOKEN_LIFETIME_MS }
    },
    timestamp: now
  }
}

/** Sent after a sign-in (password, federated, accepted terms). */
export function websiteLoginMessage(session: WebsiteSession, clock: Clock = Date.now): WebsiteSignedInMessage {
  return signedIn(WEBSITE_AUTH_LOGIN, session, clock)
}

/** Sent on page load with a stored user, on changes of the stored user or token, and to a status request. */
export function websiteSyncMessage(session: WebsiteSession, clock: Clock = Date.now): WebsiteSignedInMessage {
  return signedIn(WEBSITE_AUTH_SYNC, session, clock)
}

/** Sent after a logout, and to a status request while signed out. Carries no user and no token. */
export function websiteLogoutMessage(clock: Clock = Date.now): WebsiteLogoutMessage {
  return { type: WEBSITE_AUTH_LOGOUT, payload: { user: null, tokens: null }, timestamp: clock() }
}

export const INVALID_MESSAGE_ERROR = "Invalid message: expected an object"
const invalidTypeError = (prefix: string) => `Invalid message type: it must be a string starting with ${prefix}`
export const INVALID_TYPE_ERROR = invalidTypeError(EXTENSION_MESSAGE_PREFIX)
export const INVALID_WEBSITE_TYPE_ERROR = invalidTypeError(WEBSITE_MESSAGE_PREFIX)
export const INVALID_TIMESTAMP_ERROR = "Invalid message: the timestamp must be a number"
export const INVALID_WEBSITE_PAYLOAD_ERROR = "Invalid message: the payload must hold a user and an access token"

/** An object with a `type` under `prefix` and a finite numeric timestamp; other fields are kept as sent. */
function envelopeSchema(prefix: string) {
  const invalidType = invalidTypeError(prefix)
  return z.looseObject(
    {
      type: z.string({ error: invalidType }).startsWith(prefix, { error: invalidType }),
      timestamp: z.number({ error: INVALID_TIMESTAMP_ERROR })
    },
    { error: INVALID_MESSAGE_ERROR }
  )
}

const extensionEnvelope = envelopeSchema(EXTENSION_MESSAGE_PREFIX)
const websiteEnvelope = envelopeSchema(WEBSITE_MESSAGE_PREFIX)

/** An incoming message to the site that passed the envelope's checks; other fields are kept as sent. */
export type ExtensionMessage = z.infer<typeof extensionEnvelope>

/** The site's check of what the extension sends it. */
export function parseExtensionMessage(raw: unknown): ParseResult<ExtensionMessage> {
  return parseWith(extensionEnvelope, raw)
}

/**
 * What the extension reads of a signed-in WEBSITE_* payload: a user with an e-mail and a name (the rest of the
 * user is kept as the site sent it) and the site's access token, used once to open the extension's own session.
 * Anything else in `tokens` (a refresh token an older site still sends) is dropped here.
 */
const signedInPayloadSchema = z.object({
  user: z.looseObject({ email: z.string().min(1), name: z.string() }),
  tokens: z.object({ authToken: z.string().min(1) })
})

export type WebsiteUser = z.infer<typeof signedInPayloadSchema>["user"]

export type ParsedWebsiteMessage =
  | { type: typeof WEBSITE_AUTH_LOGIN | typeof WEBSITE_AUTH_SYNC; timestamp: number; user: WebsiteUser; authToken: string }
  | { type: typeof WEBSITE_AUTH_LOGOUT; timestamp: number }

/** The extension's check of what the site sends it: the envelope, then the payload of the message's type. */
export function parseWebsiteMessage(raw: unknown): ParseResult<ParsedWebsiteMessage> {
  const envelope = parseWith(websiteEnvelope, raw)
  if (!envelope.ok) return envelope
  const { type, timestamp, payload } = envelope.message
  if (type === WEBSITE_AUTH_LOGOUT) return { ok: true, message: { type, timestamp } }
  if (type !== WEBSITE_AUTH_LOGIN && type !== WEBSITE_AUTH_SYNC) return { ok: false, error: unknownMessageTypeError(type) }
  const parsed = signedInPayloadSchema.safeParse(payload)
  if (!parsed.success) return { ok: false, error: INVALID_WEBSITE_PAYLOAD_ERROR }
  return { ok: true, message: { type, timestamp, user: parsed.data.user, authToken: parsed.data.tokens.authToken } }
}

export function unknownMessageTypeError(type: string): string {
  return `Unknown message type: ${type}`
}

/** A request the extension sends the site over the site-link port. */
export interface ExtensionRequest {
  type: KnownExtensionMessageType
  timestamp: number
}

export function extensionRequest(type: KnownExtensionMessageType, clock: Clock = Date.now): ExtensionRequest {
  return { type, timestamp: clock() }
}
