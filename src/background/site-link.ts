/**
 * The extension → site direction: EXTENSION_AUTH_STATUS_REQUEST and EXTENSION_LOGOUT_REQUEST.
 *
 * A web page cannot listen to chrome.runtime messages, so each open page of the site connects a port named
 * SITE_LINK_PORT_NAME (externally_connectable lets only SITE_ORIGINS do that; the tab page inside the extension
 * connects as one of our own pages). Nothing secret travels on the port: requests carry a type and a timestamp,
 * the site answers `{ success, error? }` on the port and sends its auth state through the usual WEBSITE_* message.
 *
 * Signing out of the extension signs the site out. When no page of the site is open at that moment, the request
 * is remembered (pendingSiteLogoutItem) and delivered to the next page that connects; until then the site's
 * WEBSITE_AUTH_SYNC (sent on every page load while it still holds a session) must not sign the extension back in.
 */
import * as z from "zod"

import {
  EXTENSION_AUTH_STATUS_REQUEST,
  EXTENSION_LOGOUT_REQUEST,
  extensionRequest,
  SITE_LINK_PORT_NAME,
  type KnownExtensionMessageType
} from "~core/extension-messages"
import { endExtensionSession } from "~extension/account/extension-session"
import type { MessageSender } from "~extension/messaging/message-dispatch"
import { isSiteSender } from "~extension/site-link/site-origins"
import { storageItem } from "~extension/storage/storage-item"

/** A logout the site has not confirmed yet: the next page of the site to connect gets it. */
export const pendingSiteLogoutItem = storageItem({ key: "pendingSiteLogout", schema: z.boolean(), fallback: false })

type PortLike = Pick<chrome.runtime.Port, "name" | "postMessage" | "disconnect" | "onMessage" | "onDisconnect"> & {
  sender?: MessageSender
}

/** Connected pages of the site, each with the requests it has not answered yet. */
const ports = new Map<PortLike, KnownExtensionMessageType[]>()

function post(port: PortLike, type: KnownExtensionMessageType): void {
  try {
    port.postMessage(extensionRequest(type))
    ports.get(port)?.push(type)
  } catch {
    // The page went away between the check and the post.
    ports.delete(port)
  }
}

function accept(port: PortLike): void {
  if (port.name !== SITE_LINK_PORT_NAME || !isSiteSender(port.sender)) {
    port.disconnect()
    return
  }
  ports.set(port, [])
  port.onDisconnect.addListener(() => ports.delete(port))
  port.onMessage.addListener((answer: unknown) => {
    // The site answers every request, in order, on the port.
    const answered = ports.get(port)?.shift()
    const success = typeof answer === "object" && answer !== null && (answer as { success?: unknown }).success === true
    if (!success) console.warn("The site refused a request", answered, (answer as { error?: unknown } | null)?.error)
    else if (answered === EXTENSION_LOGOUT_REQUEST) void pendingSiteLogoutItem.remove()
  })
  void pendingSiteLogoutItem.get().then((pending) => post(port, pending ? EXTENSION_LOGOUT_REQUEST : EXTENSION_AUTH_STATUS_REQUEST))
}

/** Ends the extension's session and asks every page of the site, open now or opened later, to sign out too. */
export async function signOutEverywhere(fetchImpl: typeof fetch = fetch): Promise<void> {
  await pendingSiteLogoutItem.set(true)
  await endExtensionSession(fetchImpl)
  for (const port of ports.keys()) post(port, EXTENSION_LOGOUT_REQUEST)
}

/** Pages of the site connected now (tests and diagnostics). */
export function connectedSitePages(): number {
  return ports.size
}

/** Listens to the ports the site's pages open: from the web (externally_connectable) and from our own site page (tabs/site.html). */
export function listenToSiteLinks(runtime: typeof chrome.runtime = chrome.runtime): void {
  runtime.onConnectExternal.addListener(accept)
  runtime.onConnect.addListener((port) => {
    // Other internal ports (none today) are not ours to judge.
    if (port.name === SITE_LINK_PORT_NAME) accept(port)
  })
}
