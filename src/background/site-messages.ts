/**
 * The companion site's messages to the extension's service worker (WEBSITE_AUTH_LOGIN / _SYNC / _LOGOUT).
 *
 * Only pages of SITE_ORIGINS are listened to (Chrome lets no other page or extension reach us through
 * externally_connectable, and the sender's origin is checked again here), and the site rendered in our own tab
 * page. A message must pass parseWebsiteMessage (~core/extension-messages); anything else is answered
 * `{ success: false, error }`. The answers never carry a token.
 *
 * On a sign-in or sync the site's access token is used once, to open the extension's own session when it has
 * none for that user; it is never stored. It goes only to the server that issued it: a page may hand it over only
 * while the extension talks to that page's own service (siteMayHandOverTo), and the address is read once, for the
 * check and the call alike, so a change in Settings meanwhile cannot redirect it. A refresh token in the message (the site sends null; an older site sent
 * its own) is dropped by parseWebsiteMessage and never reaches this code. A logout ends the extension's session.
 */
import {
  parseWebsiteMessage,
  WEBSITE_AUTH_LOGIN,
  WEBSITE_AUTH_LOGOUT,
  WEBSITE_AUTH_SYNC,
  type ParsedWebsiteMessage
} from "~core/extension-messages"
import { extensionSuccessAnswer } from "~core/protocol"
import { getApiOrigin } from "~extension/site-link/api-origin"
import { endExtensionSession, openExtensionSession, readExtensionSession, saveExtensionSession } from "~extension/account/extension-session"
import { messageRoute, type MessageSender } from "~extension/messaging/message-dispatch"
import { isOwnSitePage } from "~extension/messaging/message-senders"
import { isSiteSender } from "~extension/site-link/site-origins"
import { senderOrigin, siteMayHandOverTo } from "~extension/site-link/site-origins"

import { pendingSiteLogoutItem } from "./site-link"

export const SENDER_NOT_ALLOWED_ERROR = "This page may not message Image Query AI"
export const SIGNED_OUT_IN_EXTENSION_ERROR = "You signed out in the extension. Sign in again to use it."
export const OTHER_SERVICE_ERROR = "Image Query AI is set to use another service in its Settings, so this site's session stays on this site."

function sameUser(a: { id?: unknown; email: string }, b: { id?: unknown; email: string }): boolean {
  if (a.id && b.id) return a.id === b.id
  return a.email.toLowerCase() === b.email.toLowerCase()
}

/** Acts on a parsed message; rejects with the reason when the service refuses. */
async function apply(message: ParsedWebsiteMessage, sender: MessageSender, fetchImpl: typeof fetch = fetch): Promise<void> {
  if (message.type === WEBSITE_AUTH_LOGOUT) {
    await endExtensionSession(fetchImpl)
    await pendingSiteLogoutItem.remove()
    return
  }
  // Our own site page (tabs/site.html) talks to the current service itself; a web page of the site only speaks for the service it is part of.
  const apiOrigin = await getApiOrigin()
  const origin = senderOrigin(sender)
  if (!isOwnSitePage(sender) && (origin === null || !siteMayHandOverTo(origin, apiOrigin))) throw new Error(OTHER_SERVICE_ERROR)
  // The site still holds the session the user ended in the extension; its logout request is on its way.
  if (message.type === WEBSITE_AUTH_SYNC && (await pendingSiteLogoutItem.get())) throw new Error(SIGNED_OUT_IN_EXTENSION_ERROR)
  if (message.type === WEBSITE_AUTH_LOGIN) await pendingSiteLogoutItem.remove()
  const current = await readExtensionSession()
  if (current && sameUser(current.user, message.user)) {
    // Same account: keep our own tokens, take the site's fresher profile (name, plan).
    const user = { ...current.user, ...message.user }
    if (JSON.stringify(user) !== JSON.stringify(current.user)) await saveExtensionSession({ ...current, user })
    return
  }
  if (current) await endExtensionSession(fetchImpl)
  await openExtensionSession(message.authToken, { fetch: fetchImpl, apiOrigin })
}

let queue: Promise<unknown> = Promise.resolve()

/**
 * The route of every WEBSITE_* message: from the site only, checked by parseWebsiteMessage, then acted on one at
 * a time, so a LOGIN followed at once by a SYNC opens one session, not two. Without a fetch of the caller's, the
 * global fetch is looked up for each message.
 */
export function siteMessageRoute(fetchImpl?: typeof fetch) {
  return messageRoute({
    from: isSiteSender,
    refusal: SENDER_NOT_ALLOWED_ERROR,
    check: parseWebsiteMessage,
    handle({ message }, sender) {
      const run = queue.then(() => apply(message, sender, fetchImpl))
      queue = run.catch(() => undefined)
      return run.then(extensionSuccessAnswer)
    }
  })
}
