/**
 * The signed-in account as the popup and the side panel show it (the user and this month's AI usage), and the way
 * to the site's pages from them (sign in, the dashboard).
 */
import type { VqaUsage } from "~core/vqa"

import { getApiOrigin } from "./api-origin"
import { extensionApi, readExtensionSession, type ExtensionSession } from "./extension-session"
import { usageText } from "./usage-text"

export type AccountState =
  | { kind: "checking" }
  | { kind: "signedOut" }
  | { kind: "signedIn"; user: ExtensionSession["user"]; usage: string | null }

/**
 * The extension's own session and the month's usage; never throws. Asking for the usage refreshes a session
 * that is due, and a refused refresh signs the extension out (the storage watchers then reload the state).
 */
export async function loadAccount(): Promise<AccountState> {
  if (!(await readExtensionSession())) return { kind: "signedOut" }
  let usage: string | null = null
  try {
    usage = usageText(await extensionApi().get<VqaUsage>("/api/analyze/usage"))
  } catch {
    // The service is unreachable or refused: show what is stored, without usage.
  }
  const current = await readExtensionSession()
  return current ? { kind: "signedIn", user: current.user, usage } : { kind: "signedOut" }
}

/** The site's sign-in page for the extension: signing in there hands the extension a session of its own. */
export const SIGN_IN_PATH = "/login?source=extension"

/** A page of the companion site, which the API's origin serves. */
export const sitePageUrl = (apiOrigin: string, path: `/${string}`): string => `${apiOrigin}${path}`

/** Opens a page of the site (of the service chosen in Settings) in a new tab. */
export async function openSitePage(path: `/${string}`): Promise<void> {
  await chrome.tabs.create({ url: sitePageUrl(await getApiOrigin(), path) })
}

/** Opens the site's sign-in page for the extension: the popup's button and the panel's links. */
export const openSignIn = () => void openSitePage(SIGN_IN_PATH)
