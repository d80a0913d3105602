/**
 * The extension → site direction (spec section 4): EXTENSION_AUTH_STATUS_REQUEST and EXTENSION_LOGOUT_REQUEST.
 *
 * A web page cannot listen to chrome.runtime messages, so each open page of the site connects a port named
 * SITE_LINK_PORT_NAME (externally_connectable lets only SITE_ORIGINS do that; the tab page inside the extension
 * connects as one of our own pages). Nothing secret travels on the port: requests carry a type and a timestamp,
 * the site answers `{ success, error? }` on the port and sends its auth state through the usual WEBSITE_* message.
 *
 * Signing out of the extension signs the site out. When no page of the site is open at that moment, the request
 * is remembered (PENDING_SITE_LOGOUT_KEY) and delivered to the next page that connects; until then the site's
 * WEBSITE_AUTH_SYNC (sent on every page load while it still holds a session) must not sign the extension back in.
 */
import {
  EXTENSION_AUTH_STATUS_REQUEST,
  EXTENSION_LOGOUT_REQUEST,
  extensionErrorAnswer,
  extensionRequest,
  extensionSuccessAnswer,
  SITE_LINK_PORT_NAME,
  type KnownExtensionMessageType
} from "~core/extension-messages"
import { endExtensionSession } from "~extension/extension-session"
import { SIGN_OUT_REQUEST } from "~extension/messages"
import { isAllowedSiteSender, type SenderLike } from "~extension/site-origins"

export const PENDING_SITE_LOGOUT_KEY = "pendingSiteLogout"

type PortLike = Pick<chrome.runtime.Port, "name" | "postMessage" | "disconnect" | "onMessage" | "onDisconnect"> & {
  sender?: SenderLike
}

/** Connected pages of the site, each with the requests it has not answered yet. */
const ports = new Map<PortLike, KnownExtensionMessageType[]>()

/** The site rendered inside the extension (tabs/site.html) is one of our own pages. */
export function isOwnSitePage(sender: SenderLike | undefined, runtime: Pick<typeof chrome.runtime, "id" | "getURL"> = chrome.runtime): boolean {
  return isOwnExtensionPage(sender, runtime, "tabs/site.html")
}

/** A sender that may speak for the site: one of SITE_ORIGINS, or the extension's own site tab page. */
export function isSiteSender(sender: SenderLike | undefined): boolean {
  return isAllowedSiteSender(sender) || isOwnSitePage(sender)
}

export async function isSiteLogoutPending(): Promise<boolean> {
  const items = await chrome.storage.local.get(PENDING_SITE_LOGOUT_KEY)
  return items[PENDING_SITE_LOGOUT_KEY] === true
}

/** The site signed in again or out: nothing is left to deliver. */
export async function clearPendingSiteLogout(): Promise<void> {
  await chrome.storage.local.remove(PENDING_SITE_LOGOUT_KEY)
}

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
    else if (answered === EXTENSION_LOGOUT_REQUEST) void clearPendingSiteLogout()
  })
  void isSiteLogoutPending().then((pending) => post(port, pending ? EXTENSION_LOGOUT_REQUEST : EXTENSION_AUTH_STATUS_REQUEST))
}

/** Ends the extension's session and asks every page of the site, open now or opened later, to sign out too. */
export async function signOutEverywhere(fetchImpl: typeof fetch = fetch): Promise<void> {
  await chrome.storage.local.set({ [PENDING_SITE_LOGOUT_KEY]: true })
  await endExtensionSession(fetchImpl)
  for (const port of ports.keys()) post(port, EXTENSION_LOGOUT_REQUEST)
}

/** Pages of the site connected now (tests and diagnostics). */
export function connectedSitePages(): number {
  return ports.size
}

/** A page of the extension itself (popup, side panel, tab pages); content scripts run in web pages and are not. */
export function isOwnExtensionPage(sender: SenderLike | undefined, runtime: Pick<typeof chrome.runtime, "id" | "getURL"> = chrome.runtime, page = ""): boolean {
  return Boolean(sender && sender.id === runtime.id && sender.url?.startsWith(runtime.getURL(page)))
}

export function listenToSiteLinks(runtime: typeof chrome.runtime = chrome.runtime): void {
  runtime.onConnectExternal.addListener(accept)
  runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    if ((message as { type?: unknown } | null)?.type !== SIGN_OUT_REQUEST || !isOwnExtensionPage(sender)) return false
    void signOutEverywhere().then(
      () => sendResponse(extensionSuccessAnswer()),
      (error: unknown) => sendResponse(extensionErrorAnswer(error))
    )
    return true
  })
  runtime.onConnect.addListener((port) => {
    // Other internal ports (none today) are not ours to judge.
    if (port.name === SITE_LINK_PORT_NAME) accept(port)
  })
}
