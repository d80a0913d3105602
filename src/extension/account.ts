/** The signed-in account as the popup and the side panel show it: the user and this month's AI usage. */
import type { VqaUsage } from "~core/vqa"

import { extensionApiFetch, getExtensionSession, readExtensionSession, type ExtensionSession } from "./extension-session"
import { usageText } from "./usage-text"

export type AccountState =
  | { kind: "checking" }
  | { kind: "signedOut" }
  | { kind: "signedIn"; user: ExtensionSession["user"]; usage: string | null }

/** The extension's own session (refreshed when due) and the month's usage; never throws. */
export async function loadAccount(): Promise<AccountState> {
  let session: ExtensionSession | null
  try {
    session = await getExtensionSession()
  } catch {
    // The service is unreachable: show what is stored, without usage.
    session = await readExtensionSession()
  }
  if (!session) return { kind: "signedOut" }
  let usage: string | null = null
  try {
    const response = await extensionApiFetch("/api/analyze/usage", { headers: { accept: "application/json" } })
    const body = (await response.json()) as { data?: VqaUsage }
    if (response.ok && body.data) usage = usageText(body.data)
  } catch {
    // A refused refresh signs the extension out; the storage watcher reloads the state.
  }
  const current = await readExtensionSession()
  return current ? { kind: "signedIn", user: current.user, usage } : { kind: "signedOut" }
}
