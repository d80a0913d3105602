/**
 * The app's single ApiClient, created on first use from the configuration given to `configureApi`.
 *
 * - Web build: nothing to configure; the base URL is "" (the page's own origin) and tokens live in localStorage.
 * - The site mount (the extension page tabs/site.html): call `configureApi({ baseUrl })` with the extension's API origin before rendering.
 * - Tests: `configureApi({ baseUrl, fetch })` with a fake fetch.
 *
 * `configureApi` replaces the whole configuration and drops the current client; the next
 * `getApiClient()` builds a new one. The client's two callbacks are fanned out to listeners registered here, so
 * the session store can follow refreshes and cleared sessions whichever client instance is current.
 */
import { createApiClient, webStorageTokens, type ApiClient, type RefreshedTokens, type TokenStorage } from "~http/http-client"

export interface ApiConfig {
  /** Origin of the API, e.g. "https://api.example.com"; "" (the default) for the page's own origin. */
  baseUrl?: string
  fetch?: typeof fetch
  /** Where the three session items live; window.localStorage by default. */
  storage?: TokenStorage
  /** Milliseconds since the epoch (token expiry). */
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
    tokens: webStorageTokens(getSessionStorage()),
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

/** The API origin the client talks to ("" for the page's own origin), for links to the API (the status report). */
export function getApiBaseUrl(): string {
  return config.baseUrl ?? ""
}
