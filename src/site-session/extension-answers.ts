/**
 * The site's answers to the extension's requests (they arrive on the link of ./extension-link): the auth status,
 * and a logout asked for from the extension. Reads and drives the session store; holds no state of its own.
 */
import {
  EXTENSION_AUTH_STATUS_REQUEST,
  EXTENSION_LOGOUT_REQUEST,
  parseExtensionMessage,
  unknownMessageTypeError
} from "~core/extension-messages"
import { extensionErrorAnswer, extensionSuccessAnswer, type ExtensionAnswer } from "~core/protocol"
import { SESSION_STORAGE_KEYS as KEYS } from "~core/user"

import { notifyExtension } from "./extension-notifier"
import { currentAuthMessage, useSession } from "./session-store"
import { getSessionStorage } from "./site-client"

/** The window event raised on EXTENSION_LOGOUT_REQUEST (a CustomEvent with detail `{ source: "extension" }`). */
export const WEBSITE_LOGOUT_EVENT = "website-logout"

/**
 * Answers a message from the extension; one whose type lacks the EXTENSION_ prefix or that has no numeric
 * timestamp gets an error answer. EXTENSION_AUTH_STATUS_REQUEST: sends WEBSITE_AUTH_SYNC (WEBSITE_AUTH_LOGOUT
 * when signed out). EXTENSION_LOGOUT_REQUEST: logs out when a session exists and raises the window event
 * "website-logout". Never throws.
 */
export async function handleExtensionMessage(raw: unknown): Promise<ExtensionAnswer> {
  const parsed = parseExtensionMessage(raw)
  if (!parsed.ok) return extensionErrorAnswer(parsed.error)
  const { type } = parsed.message
  try {
    switch (type) {
      case EXTENSION_AUTH_STATUS_REQUEST:
        await notifyExtension(currentAuthMessage())
        return extensionSuccessAnswer()
      case EXTENSION_LOGOUT_REQUEST: {
        const hasSession = useSession.getState().status === "loggedIn" || Boolean(getSessionStorage().getItem(KEYS.authToken))
        // The local part of the logout runs synchronously, so listeners of the event see the session gone.
        const done = hasSession ? useSession.getState().logout() : Promise.resolve(true)
        if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(WEBSITE_LOGOUT_EVENT, { detail: { source: "extension" } }))
        await done
        return extensionSuccessAnswer()
      }
      default:
        return extensionErrorAnswer(unknownMessageTypeError(type))
    }
  } catch (error) {
    return extensionErrorAnswer(error)
  }
}
