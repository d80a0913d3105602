/**
 * The app's single ApiClient, created on first use from the configuration given to `configureApi`.
 *
 * - Web build: nothing to configure; the base URL is "" (the page's own origin) and tokens live in localStorage.
 * - Extension tab page: call `configureApi({ baseUrl: DEFAULT_API_ORIGIN })` before rendering.
 * - Tests: `configureApi({ baseUrl, fetch })` with a fake fetch.
 *
 * `configureApi` replaces the whole configuration and drops the current client (its GET cache with it); the next
 * `getApiClient()` builds a new one. The client's two callbacks are fanned out to listeners registered here, so
 * the session store can follow refreshes and cleared sessions whichever client instance is current.
 */
import { createApiClient, type ApiClient, type RefreshedTokens, type TokenStorage } from "~api/client"
import { SESSION_STORAGE_KEYS } from "~core/user"

export interface ApiConfig {
  /** Origin of the API, e.g. "https://api.example.com"; "" (the default) for the page's own origin. */
  baseUrl?: string
  fetch?: typeof fetch
  /** Where the three session items live; window.localStorage by default. */
  storage?: TokenStorage
  /** Milliseconds since the epoch (GET cache lifetime). */
  clock?: () => number
}

let config: ApiConfig = {}
let client: ApiClient | null = null

const sessionClearedListeners = new Set<() => void>()
const tokensRefreshedListeners = new Set<(tokens: RefreshedTokens) => void>()

export function configureApi(next: ApiConfig): void {
  config = { ...next }
  client = null
}

/** The storage the client reads tokens from and the session store keeps the session in. */
export function getSessionStorage(): TokenStorage {
  return config.storage ?? window.localStorage
}

export function getApiClient(): ApiClient {
  client ??= createApiClient({
    baseUrl: config.baseUrl ?? "",
    storage: getSessionStorage(),
    fetch: config.fetch,
    clock: config.clock,
    onSessionCleared: () => {
      for (const listener of [...sessionClearedListeners]) listener()
    },
    onTokensRefreshed: (tokens) => {
      for (const listener of [...tokensRefreshedListeners]) listener(tokens)
    }
  })
  return client
}

/** The client cleared the session (no refresh token, or the server refused the refresh). Returns the unsubscribe. */
export function onSessionCleared(listener: () => void): () => void {
  sessionClearedListeners.add(listener)
  return () => sessionClearedListeners.delete(listener)
}

/** The client stored refreshed tokens. Returns the unsubscribe. */
export function onTokensRefreshed(listener: (tokens: RefreshedTokens) => void): () => void {
  tokensRefreshedListeners.add(listener)
  return () => tokensRefreshedListeners.delete(listener)
}

/**
 * A client of the same API that sends `token` as its bearer instead of the stored one, and never touches the
 * shared storage or session: for the logout call, made after the stored session has been cleared.
 */
export function createDetachedClient(token: string | null): ApiClient {
  const items = new Map<string, string>()
  const storage: TokenStorage = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key)
  }
  const detached = createApiClient({ baseUrl: config.baseUrl ?? "", storage, fetch: config.fetch, clock: config.clock })
  if (token) storage.setItem(SESSION_STORAGE_KEYS.authToken, token)
  return detached
}

/** The API origin the client talks to ("" for the page's own origin), for calls made outside the client. */
export function getApiBaseUrl(): string {
  return config.baseUrl ?? ""
}
