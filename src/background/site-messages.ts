/**
 * The companion site's messages to the extension's service worker (WEBSITE_AUTH_LOGIN / _SYNC / _LOGOUT).
 *
 * Only pages of SITE_ORIGINS are listened to (Chrome lets no other page or extension reach us through
 * externally_connectable, and the sender's origin is checked again here). A message must be an object with a
 * WEBSITE_* type, a finite numeric timestamp and the payload of its type; anything else is answered
 * `{ success: false, error }`. The answers never carry a token.
 *
 * On a sign-in or sync the site's access token is used once, to open the extension's own session when it has
 * none for that user; it is never stored. A logout ends the extension's session.
 */
import {
  extensionErrorAnswer,
  extensionSuccessAnswer,
  WEBSITE_AUTH_LOGIN,
  WEBSITE_AUTH_LOGOUT,
  WEBSITE_AUTH_SYNC,
  type ExtensionAnswer
} from "~core/extension-messages"
import {
  endExtensionSession,
  openExtensionSession,
  readExtensionSession,
  saveExtensionSession,
  type SessionUser
} from "~extension/extension-session"
import { type SenderLike } from "~extension/site-origins"

import { clearPendingSiteLogout, isSiteLogoutPending, isSiteSender } from "./site-link"

export const WEBSITE_MESSAGE_PREFIX = "WEBSITE_"
export const SENDER_NOT_ALLOWED_ERROR = "This page may not message Image Query AI"
export const INVALID_WEBSITE_MESSAGE_ERROR = "Invalid message: expected an object"
export const INVALID_WEBSITE_TYPE_ERROR = `Invalid message type: it must be a string starting with ${WEBSITE_MESSAGE_PREFIX}`
export const INVALID_WEBSITE_TIMESTAMP_ERROR = "Invalid message: the timestamp must be a number"
export const INVALID_WEBSITE_PAYLOAD_ERROR = "Invalid message: the payload must hold a user and an access token"
export const SIGNED_OUT_IN_EXTENSION_ERROR = "You signed out in the extension. Sign in again to use it."

export type ParsedWebsiteMessage =
  | { type: typeof WEBSITE_AUTH_LOGIN | typeof WEBSITE_AUTH_SYNC; timestamp: number; user: SessionUser; authToken: string }
  | { type: typeof WEBSITE_AUTH_LOGOUT; timestamp: number }

export type ParseWebsiteMessageResult = { ok: true; message: ParsedWebsiteMessage } | { ok: false; error: string }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** The checks of spec section 5, mirrored for the extension's side: type, numeric timestamp, payload shape. */
export function parseWebsiteMessage(raw: unknown): ParseWebsiteMessageResult {
  if (!isObject(raw)) return { ok: false, error: INVALID_WEBSITE_MESSAGE_ERROR }
  const { type, timestamp, payload } = raw
  if (typeof type !== "string" || !type.startsWith(WEBSITE_MESSAGE_PREFIX)) return { ok: false, error: INVALID_WEBSITE_TYPE_ERROR }
  if (typeof timestamp !== "number" || !Number.isFinite(timestamp)) return { ok: false, error: INVALID_WEBSITE_TIMESTAMP_ERROR }
  if (type === WEBSITE_AUTH_LOGOUT) return { ok: true, message: { type, timestamp } }
  if (type !== WEBSITE_AUTH_LOGIN && type !== WEBSITE_AUTH_SYNC) return { ok: false, error: `Unknown message type: ${type}` }
  if (!isObject(payload) || !isObject(payload.user) || !isObject(payload.tokens)) return { ok: false, error: INVALID_WEBSITE_PAYLOAD_ERROR }
  const { user, tokens } = payload
  if (typeof user.email !== "string" || !user.email || typeof user.name !== "string") return { ok: false, error: INVALID_WEBSITE_PAYLOAD_ERROR }
  if (typeof tokens.authToken !== "string" || !tokens.authToken) return { ok: false, error: INVALID_WEBSITE_PAYLOAD_ERROR }
  return { ok: true, message: { type, timestamp, user: user as SessionUser, authToken: tokens.authToken } }
}

function sameUser(a: SessionUser, b: SessionUser): boolean {
  if (a.id && b.id) return a.id === b.id
  return a.email.toLowerCase() === b.email.toLowerCase()
}

/** Acts on a parsed message; rejects with the reason when the service refuses. */
async function apply(message: ParsedWebsiteMessage, fetchImpl: typeof fetch): Promise<void> {
  if (message.type === WEBSITE_AUTH_LOGOUT) {
    await endExtensionSession(fetchImpl)
    await clearPendingSiteLogout()
    return
  }
  // The site still holds the session the user ended in the extension; its logout request is on its way.
  if (message.type === WEBSITE_AUTH_SYNC && (await isSiteLogoutPending())) throw new Error(SIGNED_OUT_IN_EXTENSION_ERROR)
  if (message.type === WEBSITE_AUTH_LOGIN) await clearPendingSiteLogout()
  const current = await readExtensionSession()
  if (current && sameUser(current.user, message.user)) {
    // Same account: keep our own tokens, take the site's fresher profile (name, plan).
    const user = { ...current.user, ...message.user }
    if (JSON.stringify(user) !== JSON.stringify(current.user)) await saveExtensionSession({ ...current, user })
    return
  }
  if (current) await endExtensionSession(fetchImpl)
  await openExtensionSession(message.authToken, fetchImpl)
}

let queue: Promise<unknown> = Promise.resolve()

/**
 * Checks the sender and the message, then acts on it. Messages are handled one at a time, so a LOGIN followed
 * at once by a SYNC opens one session, not two. Never rejects.
 */
export function handleSiteMessage(raw: unknown, sender: SenderLike | undefined, fetchImpl: typeof fetch = fetch): Promise<ExtensionAnswer> {
  if (!isSiteSender(sender)) return Promise.resolve(extensionErrorAnswer(SENDER_NOT_ALLOWED_ERROR))
  const parsed = parseWebsiteMessage(raw)
  if (!parsed.ok) return Promise.resolve(extensionErrorAnswer(parsed.error))
  const run = queue.then(() => apply(parsed.message, fetchImpl))
  queue = run.catch(() => undefined)
  return run.then(
    () => extensionSuccessAnswer(),
    (error: unknown) => extensionErrorAnswer(error)
  )
}

/**
 * Registers the service worker's listeners: onMessageExternal for the site on the web, onMessage for the site
 * rendered in the extension's own tab page (other internal messages are left to their own listeners).
 */
export function listenToSiteMessages(runtime: typeof chrome.runtime = chrome.runtime): void {
  runtime.onMessageExternal.addListener((message, sender, sendResponse) => {
    void handleSiteMessage(message, sender).then(sendResponse)
    return true
  })
  runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    const type = (message as { type?: unknown } | null)?.type
    if (typeof type !== "string" || !type.startsWith(WEBSITE_MESSAGE_PREFIX)) return false
    void handleSiteMessage(message, sender).then(sendResponse)
    return true
  })
}
