/**
 * The extension's own session, kept in chrome.storage.local (through @plasmohq/storage) under one key.
 *
 * It is opened from the site's access token once (POST /api/auth/extension-session, which starts a session with
 * client "extension" and a refresh-token family of its own) and from then on refreshed by the extension itself,
 * so the site's and the extension's refreshes and logouts never revoke each other. The site's token is never stored.
 *
 * Usable from the service worker and the extension's pages (popup, side panel): everything goes through storage,
 * nothing is kept in memory but a pending refresh.
 */
import { Storage } from "@plasmohq/storage"

import type { User } from "~core/user"

import { getApiOrigin } from "./api-origin"

export const EXTENSION_SESSION_KEY = "extensionSession"
/** A token that expires within this time is refreshed before use. */
export const REFRESH_MARGIN_MS = 5 * 60_000

export type SessionUser = User & { id?: string }

export interface ExtensionSession {
  user: SessionUser
  token: string
  refreshToken: string
  /** Milliseconds since the epoch (the API answers seconds; converted on arrival). */
  expiresAt: number
}

export class ExtensionSessionError extends Error {}

/** A fresh client each time: it binds chrome.storage when built, and building one costs nothing. */
function sessionStorage(): Storage {
  return new Storage({ area: "local" })
}

function isSession(value: unknown): value is ExtensionSession {
  if (typeof value !== "object" || value === null) return false
  const record = value as Record<string, unknown>
  const user = record.user as Record<string, unknown> | null
  return (
    typeof record.token === "string" &&
    typeof record.refreshToken === "string" &&
    typeof record.expiresAt === "number" &&
    typeof user === "object" &&
    user !== null &&
    typeof user.email === "string"
  )
}

/** The stored session as it is, without refreshing; null when signed out. */
export async function readExtensionSession(): Promise<ExtensionSession | null> {
  const stored = await sessionStorage().get<unknown>(EXTENSION_SESSION_KEY)
  return isSession(stored) ? stored : null
}

export async function saveExtensionSession(session: ExtensionSession): Promise<void> {
  await sessionStorage().set(EXTENSION_SESSION_KEY, session)
}

export async function clearExtensionSession(): Promise<void> {
  await sessionStorage().remove(EXTENSION_SESSION_KEY)
}

/** The API answers `expiresAt` in seconds since the epoch; a value already in milliseconds is kept. */
export function toMilliseconds(expiresAt: number): number {
  return expiresAt < 1e12 ? expiresAt * 1000 : expiresAt
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    return (await response.json()) as Record<string, unknown>
  } catch {
    return null
  }
}

function apiErrorMessage(body: Record<string, unknown> | null, status: number): string {
  const error = body?.error as { message?: unknown } | undefined
  return typeof error?.message === "string" ? error.message : `The service answered ${status}`
}

/**
 * Opens the extension's own session with the site's access token (used for this one call only) and stores it.
 * Throws ExtensionSessionError when the service refuses.
 */
export async function openExtensionSession(siteAccessToken: string, fetchImpl: typeof fetch = fetch): Promise<ExtensionSession> {
  const origin = await getApiOrigin()
  const response = await fetchImpl(`${origin}/api/auth/extension-session`, {
    method: "POST",
    headers: { authorization: `Bearer ${siteAccessToken}`, accept: "application/json" }
  })
  const body = await readJson(response)
  const data = body?.data as Record<string, unknown> | undefined
  if (!response.ok || !data) throw new ExtensionSessionError(apiErrorMessage(body, response.status))
  const session = { user: data.user, token: data.token, refreshToken: data.refreshToken, expiresAt: toMilliseconds(Number(data.expiresAt)) }
  if (!isSession(session)) throw new ExtensionSessionError("The service answered an unexpected session")
  await saveExtensionSession(session)
  return session
}

let pendingRefresh: Promise<ExtensionSession | null> | null = null

/**
 * Rotates the refresh token (POST /api/auth/refresh) and stores both new tokens. A refused refresh (the session
 * was revoked or expired) clears the session and resolves null; a network failure throws and keeps it.
 */
export function refreshExtensionSession(session: ExtensionSession, fetchImpl: typeof fetch = fetch): Promise<ExtensionSession | null> {
  pendingRefresh ??= (async () => {
    try {
      const origin = await getApiOrigin()
      const response = await fetchImpl(`${origin}/api/auth/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ refreshToken: session.refreshToken })
      })
      const body = await readJson(response)
      const data = body?.data as Record<string, unknown> | undefined
      if (response.status >= 400 && response.status < 500) {
        // Only clear what we refreshed: another context may have stored a newer session meanwhile.
        const current = await readExtensionSession()
        if (!current || current.refreshToken === session.refreshToken) await clearExtensionSession()
        return null
      }
      if (!response.ok || typeof data?.token !== "string" || typeof data.refreshToken !== "string") {
        throw new ExtensionSessionError(apiErrorMessage(body, response.status))
      }
      const next: ExtensionSession = { ...session, token: data.token, refreshToken: data.refreshToken, expiresAt: toMilliseconds(Number(data.expiresAt)) }
      await saveExtensionSession(next)
      return next
    } finally {
      pendingRefresh = null
    }
  })()
  return pendingRefresh
}

/** The session, refreshed first when its token expires within five minutes; null when signed out. */
export async function getExtensionSession(fetchImpl: typeof fetch = fetch, now: number = Date.now()): Promise<ExtensionSession | null> {
  const session = await readExtensionSession()
  if (!session) return null
  if (session.expiresAt - now >= REFRESH_MARGIN_MS) return session
  return refreshExtensionSession(session, fetchImpl)
}

/**
 * fetch() to the API with the extension's token: `path` is relative to the API origin. A 401 refreshes the
 * session once and retries. Throws ExtensionSessionError when signed out (or when the session cannot be renewed).
 */
export async function extensionApiFetch(path: string, init: RequestInit = {}, fetchImpl: typeof fetch = fetch): Promise<Response> {
  const session = await getExtensionSession(fetchImpl)
  if (!session) throw new ExtensionSessionError("Not signed in")
  const origin = await getApiOrigin()
  const send = (token: string) => {
    const headers = new Headers(init.headers)
    headers.set("authorization", `Bearer ${token}`)
    return fetchImpl(`${origin}${path}`, { ...init, headers })
  }
  const response = await send(session.token)
  if (response.status !== 401) return response
  const renewed = await refreshExtensionSession(session, fetchImpl)
  if (!renewed) throw new ExtensionSessionError("Your session has expired. Please sign in again.")
  return send(renewed.token)
}

/** Ends the extension's session: clears it at once, then tells the API (best effort). The site's session is untouched. */
export async function endExtensionSession(fetchImpl: typeof fetch = fetch): Promise<void> {
  const session = await readExtensionSession()
  await clearExtensionSession()
  if (!session) return
  try {
    const origin = await getApiOrigin()
    await fetchImpl(`${origin}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
      body: JSON.stringify({ refreshToken: session.refreshToken })
    })
  } catch (error) {
    console.warn("Could not end the extension's session on the service", error)
  }
}

/** Calls `listener` whenever the stored session changes (sign-in, refresh, sign-out) in any extension context. */
export function watchExtensionSession(listener: () => void): () => void {
  const onChanged = (changes: Record<string, unknown>, area: string) => {
    if (area === "local" && EXTENSION_SESSION_KEY in changes) listener()
  }
  chrome.storage.onChanged.addListener(onChanged)
  return () => chrome.storage.onChanged.removeListener(onChanged)
}
