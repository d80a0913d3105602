/**
 * The signed-in account as the popup and the side panel show it (the user and this month's AI usage), and the way
 * to the site's pages from them (sign in, the dashboard).
 */
import type { ApiClient } from "~http/http-client"
import { publicUserSchema } from "~core/user"
import type { VqaUsageReport } from "~core/analysis/vqa"

import { getApiOrigin } from "../site-link/api-origin"
import { extensionApi, readExtensionSession, saveExtensionSession, type ExtensionSession, type SessionUser } from "./extension-session"
import { keepBrandLogo, membershipOfUser } from "./organization-brand"
import { usageText } from "./usage-text"

export type AccountState =
  | { kind: "checking" }
  | { kind: "signedOut" }
  | { kind: "signedIn"; user: ExtensionSession["user"]; usage: string | null }

function sameAccount(a: Pick<SessionUser, "id" | "email">, b: Pick<SessionUser, "id" | "email">): boolean {
  if (a.id && b.id) return a.id === b.id
  return a.email.toLowerCase() === b.email.toLowerCase()
}

/**
 * Reads the profile again (name, plan, organisation and its brand) into the stored session's user, when it changed
 * and the session is still that account's; keeps what is stored when the service cannot answer. Never throws.
 */
export async function refreshStoredProfile(api: ApiClient = extensionApi()): Promise<void> {
  let profile
  try {
    profile = publicUserSchema.safeParse((await api.get<{ user?: unknown }>("/api/auth/profile"))?.user)
  } catch {
    return
  }
  if (!profile.success) return
  // Read just before the write, so a token rotated meanwhile is kept.
  const current = await readExtensionSession()
  if (!current || !sameAccount(current.user, profile.data)) return
  const user: SessionUser = { ...current.user, ...profile.data }
  if (JSON.stringify(user) !== JSON.stringify(current.user)) await saveExtensionSession({ ...current, user })
}

/**
 * The extension's own session and the month's usage; never throws. Asking for the usage refreshes a session
 * that is due, and a refused refresh signs the extension out (the storage watchers then reload the state). The
 * profile is read again alongside, so a membership or brand changed on the site shows; the organisation's logo is
 * then fetched or dropped in the background (the header reads it from storage).
 */
export async function loadAccount(): Promise<AccountState> {
  if (!(await readExtensionSession())) {
    void keepBrandLogo(null)
    return { kind: "signedOut" }
  }
  const api = extensionApi()
  // Unreachable or refused: show what is stored, without usage.
  const [usage] = await Promise.all([api.get<VqaUsageReport>("/api/analyze/usage").then((answer) => usageText(answer)).catch(() => null), refreshStoredProfile(api)])
  const current = await readExtensionSession()
  void keepBrandLogo(membershipOfUser(current?.user))
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
