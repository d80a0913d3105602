/**
 * The extension's own session, kept in chrome.storage.local under one key, and the API client that uses it.
 * Chrome keeps it as it is: there storage.local is closed to content scripts (setAccessLevel, src/background/index.ts).
 * Firefox has no such setting, so there it is sealed with a key only the extension's pages can use (./sealed-item),
 * which keeps the person signed in across restarts without any content script reading a token.
 *
 * It is opened from the site's access token once (POST /api/auth/extension-session, which starts a session with
 * client "extension" and a refresh-token family of its own) and from then on refreshed by the extension itself,
 * so the site's and the extension's refreshes and logouts never revoke each other. The site's token is never stored.
 *
 * Usable from the service worker and the extension's pages (popup, side panel): the session lives in storage,
 * so every context sees the same one; each context's client shares its own pending refresh.
 */
import * as z from "zod"

import { createApiClient, type ApiClient, type TokenStore } from "~http/http-client"
import type { User } from "~core/user"

import { apiOriginItem, getApiOrigin } from "../site-link/api-origin"
import { CONTENT_SCRIPTS_READ_STORAGE, sealedItem } from "./sealed-item"
import { noteSent } from "./sent-ledger"
import { storageItem, type StoredValue } from "../storage/storage-item"

export const TOKEN_EXPIRY_MARGIN_SECONDS = 300

export type SessionUser = User & { id?: string }

/** The API answers `expiresAt` in seconds since the epoch; a value already in milliseconds is kept. */
export function toMilliseconds(expiresAt: number): number {
  return expiresAt < 1e12 ? expiresAt * 1000 : expiresAt
}

/** Only the address is required of the stored user: the rest is the profile as the service or the site sent it. */
const sessionUserSchema = z.custom<SessionUser>((value) => z.looseObject({ email: z.string() }).safeParse(value).success)

const extensionSessionSchema = z.object({
  user: sessionUserSchema,
  token: z.string().min(1),
  refreshToken: z.string().min(1),
  /** Milliseconds since the epoch. */
  expiresAt: z.number()
})

export type ExtensionSession = z.infer<typeof extensionSessionSchema>

/** Kept as JSON text, the format @plasmohq/storage wrote, so sessions of earlier versions still read. */
const storedJson = (value: unknown) => {
  if (typeof value !== "string") return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}

const sessionDefinition = { key: "extensionSession", schema: z.preprocess(storedJson, extensionSessionSchema.nullable()), fallback: null }

/** The session kept as it is (Chrome), and as the Firefox versions before sealing kept it. */
export const openSessionItem = storageItem<ExtensionSession | null>({ ...sessionDefinition, encode: (session) => JSON.stringify(session) })

/** The session sealed (./sealed-item), as the Firefox build keeps it; with the extension's own key unless given one. */
export const sealedSessionItem = (sealingKey?: () => Promise<CryptoKey>): StoredValue<ExtensionSession | null> => sealedItem({ ...sessionDefinition, sealingKey })

/** Where this build keeps the session: sealed in Firefox, as it is in Chrome. */
export const extensionSessionItem: StoredValue<ExtensionSession | null> = CONTENT_SCRIPTS_READ_STORAGE ? sealedSessionItem() : openSessionItem

export const EXTENSION_SESSION_KEY = extensionSessionItem.key

/**
 * Seals a session an earlier version kept as it is (Firefox, once, when the extension is updated), so the person stays
 * signed in. Only then: afterwards an unsealed value reads as no session, so that a content script, which can write
 * storage.local in Firefox, cannot plant a session of its own.
 */
export async function sealOpenSession(open: StoredValue<ExtensionSession | null> = openSessionItem, sealed: StoredValue<ExtensionSession | null> = extensionSessionItem): Promise<void> {
  if (open === sealed) return
  const session = await open.get()
  if (session) await sealed.set(session)
}

/** The stored session as it is, without refreshing; null when signed out. */
export const readExtensionSession = (): Promise<ExtensionSession | null> => extensionSessionItem.get()
export const saveExtensionSession = (session: ExtensionSession): Promise<void> => extensionSessionItem.set(session)
export const clearExtensionSession = (): Promise<void> => extensionSessionItem.remove()

/** The client's view of the stored session: rotations keep the user; a refused refresh clears only what it refreshed. */
const extensionTokens: TokenStore = {
  async read() {
    const session = await readExtensionSession()
    return session && { token: session.token, refreshToken: session.refreshToken, expiresAt: session.expiresAt }
  },
  async saveRefreshed(tokens, previous) {
    const session = await readExtensionSession()
    if (!session || session.refreshToken !== previous.refreshToken) return
    const expiresAt = tokens.expiresAt === undefined ? session.expiresAt : toMilliseconds(Number(tokens.expiresAt))
    await saveExtensionSession({ ...session, token: tokens.token, refreshToken: tokens.refreshToken, expiresAt })
  },
  async clear(previous) {
    // Another context may have stored a newer session meanwhile.
    const current = await readExtensionSession()
    if (current && (!previous || current.refreshToken === previous.refreshToken)) await clearExtensionSession()
  }
}

/**
 * A client of the API with the extension's session: calls needing it are refused unsent while signed out, and a
 * token counts as expiring, so is refreshed before use, when fewer than 300 s remain. Every request it sends is
 * written in Sent from this device.
 */
export function createExtensionApiClient({ fetch, clock, apiOrigin }: { fetch?: typeof globalThis.fetch; clock?: () => number; apiOrigin?: string } = {}): ApiClient {
  const baseUrl = apiOrigin === undefined ? getApiOrigin : async () => apiOrigin
  return createApiClient({ baseUrl, tokens: extensionTokens, fetch, clock, refreshAheadMs: TOKEN_EXPIRY_MARGIN_SECONDS * 1000, sessionRequired: true, onSend: noteSent })
}

let sharedClient: ApiClient | null = null

/** This context's client, so that its calls share one pending refresh. */
export function extensionApi(): ApiClient {
  sharedClient ??= createExtensionApiClient()
  return sharedClient
}

/**
 * Opens the extension's own session with the site's access token (used for this one call only) at `apiOrigin`, the
 * service the caller checked the token may go to, and stores it, unless the extension was pointed at another service
 * meanwhile. Rejects with the client's ApiRequestError when the service refuses, or when its answer is not a session.
 */
export async function openExtensionSession(siteAccessToken: string, { apiOrigin, fetch: fetchImpl }: { apiOrigin: string; fetch?: typeof fetch }): Promise<ExtensionSession> {
  const client = createExtensionApiClient({ fetch: fetchImpl, apiOrigin })
  const data = await client.post<Record<string, unknown>>("/api/auth/extension-session", undefined, { auth: { bearer: siteAccessToken } })
  const parsed = extensionSessionSchema.safeParse({ ...data, expiresAt: toMilliseconds(Number(data?.expiresAt)) })
  if (!parsed.success) throw new Error("The service answered an unexpected session")
  if ((await getApiOrigin()) !== apiOrigin) throw new Error("Image Query AI was pointed at another service while signing in. Please sign in again.")
  await saveExtensionSession(parsed.data)
  return parsed.data
}

/** Ends the extension's session: clears it at once, then tells the API (best effort). The site's session is untouched. */
export async function endExtensionSession(fetchImpl?: typeof fetch): Promise<void> {
  const session = await readExtensionSession()
  await clearExtensionSession()
  if (!session) return
  try {
    const client = fetchImpl ? createExtensionApiClient({ fetch: fetchImpl }) : extensionApi()
    await client.post("/api/auth/logout", { refreshToken: session.refreshToken }, { auth: { bearer: session.token } })
  } catch (error) {
    console.warn("Could not end the extension's session on the service", error)
  }
}

/**
 * Points the extension at another service. The session belongs to the service that opened it, so it ends first,
 * against the old address (that server revokes it); its tokens are dropped here even when the old server cannot
 * be reached, and only then is the new address stored. The same address again changes nothing.
 */
export async function changeApiOrigin(origin: string, fetchImpl?: typeof fetch): Promise<void> {
  if (origin === (await getApiOrigin())) return
  await endExtensionSession(fetchImpl)
  await apiOriginItem.set(origin)
}

/** Calls `listener` whenever the stored session changes (sign-in, refresh, sign-out) in any extension context. */
export function watchExtensionSession(listener: () => void): () => void {
  return extensionSessionItem.watch(() => listener())
}
