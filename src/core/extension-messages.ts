/**
 * The message protocol between the companion site and the extension (spec sections 3, 4 and 5).
 *
 * Outgoing (site → extension): WEBSITE_AUTH_LOGIN, WEBSITE_AUTH_LOGOUT and WEBSITE_AUTH_SYNC, each
 * `{ type, payload: { user, tokens }, timestamp }`. The tokens' `expiresAt` is the time, in milliseconds since
 * the epoch, until which the extension may use them: now plus EXTENSION_TOKEN_LIFETIME_MS (1 hour).
 * WEBSITE_AUTH_LOGOUT keeps the same payload keys with `user: null, tokens: null`, so a reader of
 * `message.payload.user` never has to test for a missing payload; it never carries a token.
 *
 * Incoming (extension → site): accepted only when `type` is a string starting with EXTENSION_ and `timestamp`
 * is a finite number. Errors are answered `{ success: false, error: message }`.
 *
 * Pure data: no DOM, Node or extension API here, so the site, the extension and tests share it.
 */
import { EXTENSION_TOKEN_LIFETIME_MS } from "./limits"
import { type User } from "./user"

export const WEBSITE_AUTH_LOGIN = "WEBSITE_AUTH_LOGIN"
export const WEBSITE_AUTH_LOGOUT = "WEBSITE_AUTH_LOGOUT"
export const WEBSITE_AUTH_SYNC = "WEBSITE_AUTH_SYNC"

export const EXTENSION_MESSAGE_PREFIX = "EXTENSION_"
export const EXTENSION_AUTH_STATUS_REQUEST = "EXTENSION_AUTH_STATUS_REQUEST"
export const EXTENSION_LOGOUT_REQUEST = "EXTENSION_LOGOUT_REQUEST"

/**
 * Name of the long-lived port the site opens to the extension (chrome.runtime.connect): the extension sends
 * its EXTENSION_* requests over it, since a web page cannot receive chrome.runtime messages otherwise, and the
 * site answers each one on the same port with an ExtensionAnswer.
 */
export const SITE_LINK_PORT_NAME = "image-query-ai-site"

/** Incoming types the site knows how to answer. */
export const KNOWN_EXTENSION_MESSAGE_TYPES = [EXTENSION_AUTH_STATUS_REQUEST, EXTENSION_LOGOUT_REQUEST] as const
export type KnownExtensionMessageType = (typeof KNOWN_EXTENSION_MESSAGE_TYPES)[number]

/** Milliseconds since the epoch. */
export type Clock = () => number

export interface ExtensionTokens {
  authToken: string
  /** null when the site holds no refresh token (the extension then cannot renew the session itself). */
  refreshToken: string | null
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
export type WebsiteMessageType = WebsiteMessage["type"]

/** What the builders need of the browser session. */
export interface WebsiteSession {
  user: User
  authToken: string
  refreshToken?: string | null
}

function signedIn(type: WebsiteSignedInMessage["type"], session: WebsiteSession, clock: Clock): WebsiteSignedInMessage {
  const now = clock()
  return {
    type,
    payload: {
      user: session.user,
      tokens: { authToken: session.authToken, refreshToken: session.refreshToken ?? null, expiresAt: now + EXTENSION_TOKEN_LIFETIME_MS }
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

/** An incoming message that passed the checks of spec section 5; other fields are kept as sent. */
export interface ExtensionMessage {
  type: string
  timestamp: number
  payload?: unknown
  [field: string]: unknown
}

export type ParseExtensionMessageResult = { ok: true; message: ExtensionMessage } | { ok: false; error: string }

export const INVALID_MESSAGE_ERROR = "Invalid message: expected an object"
export const INVALID_TYPE_ERROR = `Invalid message type: it must be a string starting with ${EXTENSION_MESSAGE_PREFIX}`
export const INVALID_TIMESTAMP_ERROR = "Invalid message: the timestamp must be a number"

export function parseExtensionMessage(raw: unknown): ParseExtensionMessageResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, error: INVALID_MESSAGE_ERROR }
  const record = raw as Record<string, unknown>
  const { type, timestamp } = record
  if (typeof type !== "string" || !type.startsWith(EXTENSION_MESSAGE_PREFIX)) return { ok: false, error: INVALID_TYPE_ERROR }
  if (typeof timestamp !== "number" || !Number.isFinite(timestamp)) return { ok: false, error: INVALID_TIMESTAMP_ERROR }
  return { ok: true, message: { ...record, type, timestamp } }
}

export function isKnownExtensionMessageType(type: string): type is KnownExtensionMessageType {
  return (KNOWN_EXTENSION_MESSAGE_TYPES as readonly string[]).includes(type)
}

export function unknownMessageTypeError(type: string): string {
  return `Unknown message type: ${type}`
}

export type ExtensionAnswer = { success: true } | { success: false; error: string }

export function extensionSuccessAnswer(): ExtensionAnswer {
  return { success: true }
}

export function extensionErrorAnswer(error: unknown): ExtensionAnswer {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "Unknown error"
  return { success: false, error: message || "Unknown error" }
}

/** A request the extension sends the site over the site-link port. */
export interface ExtensionRequest {
  type: KnownExtensionMessageType
  timestamp: number
}

export function extensionRequest(type: KnownExtensionMessageType, clock: Clock = Date.now): ExtensionRequest {
  return { type, timestamp: clock() }
}
