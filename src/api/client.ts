/**
 * The site's HTTP client (spec sections 4, 7 and 9): bearer token, one shared token refresh on 401,
 * an opt-in GET cache, and one error type for every failure.
 */
import ky, { TimeoutError } from "ky"

import { type ApiErrorBody, type ApiErrorCode } from "~core/api"
import { API_GET_CACHE_TTL_MS, API_REQUEST_TIMEOUT_MS } from "~core/limits"
import { SESSION_STORAGE_KEYS } from "~core/user"

export const NETWORK_ERROR_MESSAGE = "Connection error. Please check your internet connection and try again."
/** Code of an answer that is not the {success, data, error} wrapper (a proxy's HTML page, an empty body...). */
export const INVALID_RESPONSE_CODE = "INVALID_RESPONSE"
export const REFRESH_PATH = "/api/auth/refresh"
/** Web Locks name: tabs of the same origin take turns refreshing, so a rotated refresh token is used only once. */
export const REFRESH_LOCK_NAME = "image-query-ai-refresh"

/** A 401 from these means wrong credentials or a dead refresh token: a new token cannot fix it. */
const NO_REFRESH_PATHS = new Set(["/api/auth/login", "/api/auth/register", REFRESH_PATH])

/** Paths that name the same resource: a write to one makes cached GETs of all of them stale. */
const SAME_RESOURCE_PATHS = [["/api/auth/profile", "/api/users/profile"]]

export type TokenStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">

export interface RefreshedTokens {
  token: string
  refreshToken: string
  expiresAt?: string | number
}

export interface ApiClientOptions {
  /** Origin of the API, e.g. "https://example.com"; "" for the page's own origin. */
  baseUrl: string
  storage: TokenStorage
  fetch?: typeof fetch
  /** Milliseconds since the epoch; measures the GET cache lifetime. */
  clock?: () => number
  onSessionCleared?: () => void
  onTokensRefreshed?: (tokens: RefreshedTokens) => void
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>

export interface RequestOptions {
  signal?: AbortSignal
}

export interface GetOptions extends RequestOptions {
  params?: QueryParams
  /** Serve and keep the answer in the 5-minute cache, keyed by path plus params. */
  cache?: boolean
}

export interface UploadOptions extends RequestOptions {
  /** Name sent for the file part; a File's own name by default. */
  fileName?: string
}

/** Every failure of the client: a wrapper error from the server, an unreadable answer, or no answer at all. */
export class ApiRequestError extends Error implements ApiErrorBody {
  override readonly name = "ApiRequestError"
  /** HTTP status; 0 when the server could not be reached or did not answer in time. */
  readonly status: number
  readonly code: ApiErrorCode
  readonly details?: string[]
  readonly retryAfter?: number
  readonly remainingAttempts?: number
  readonly nextAttemptDelay?: number

  constructor(status: number, body: ApiErrorBody, options?: { cause?: unknown }) {
    super(body.message, options)
    this.status = status
    this.code = body.code
    this.details = body.details
    this.retryAfter = body.retryAfter
    this.remainingAttempts = body.remainingAttempts
    this.nextAttemptDelay = body.nextAttemptDelay
  }

  get isNetworkError(): boolean {
    return this.code === "NETWORK_ERROR"
  }
}

export type ApiClient = ReturnType<typeof createApiClient>

type Method = "get" | "post" | "put" | "patch" | "delete"

interface SendInit extends RequestOptions {
  query?: string
  json?: unknown
  body?: FormData
}

interface CacheEntry {
  path: string
  data: unknown
  expiresAt: number
}

export function createApiClient(options: ApiClientOptions) {
  const { storage, clock = Date.now, onSessionCleared, onTokensRefreshed } = options
  const baseUrl = options.baseUrl.replace(/\/+$/, "")
  const keys = SESSION_STORAGE_KEYS

  const http = ky.create({
    timeout: API_REQUEST_TIMEOUT_MS,
    // One attempt per call: a POST must never be sent twice, and the query layer has its own retry policy.
    retry: 0,
    // Error answers carry the wrapper too; we read every answer ourselves.
    throwHttpErrors: false,
    // Looked up per call, so a fetch replaced after start-up (tests, polyfills) is used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  })

  const cache = new Map<string, CacheEntry>()
  let refreshing: Promise<string | null> | null = null

  /** One HTTP exchange with the given token; only "no answer" throws here. */
  async function exchange(method: Method, path: string, init: SendInit, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" }
    if (token) headers.authorization = `Bearer ${token}`
    const url = `${baseUrl}${path}${init.query ? `?${init.query}` : ""}`
    try {
      return await http(url, { method, headers, json: init.json, body: init.body, signal: init.signal })
    } catch (error) {
      // A cancellation by the caller (e.g. react-query) is not a connection problem: let it through as is.
      if (init.signal?.aborted && !(error instanceof TimeoutError)) throw error
      throw networkError(error)
    }
  }

  /** Sends, and on a 401 refreshes the session once and retries once with the new token. */
  async function send<T>(method: Method, path: string, init: SendInit = {}, read: (response: Response) => Promise<T> = readWrapper): Promise<T> {
    // Read at send time: another tab may have stored a newer token.
    const sentToken = storage.getItem(keys.authToken)
    let response = await exchange(method, path, init, sentToken)
    if (response.status === 401 && !NO_REFRESH_PATHS.has(path)) {
      const newToken = await refreshSession(sentToken)
      // Without a new token the original 401 is the answer; the retry's own 401 is final (no loop).
      if (newToken) response = await exchange(method, path, init, newToken)
    }
    return read(response)
  }

  /**
   * Single flight: every caller while a refresh runs gets the same promise.
   * Resolves to the token to use, or null when the session is over (and then cleared);
   * rejects (session kept) when the server could not be reached or failed on its side.
   */
  function refreshSession(staleToken: string | null = storage.getItem(keys.authToken)): Promise<string | null> {
    refreshing ??= withRefreshLock(() => refreshUnlessDone(staleToken)).finally(() => {
      refreshing = null
    })
    return refreshing
  }

  async function refreshUnlessDone(staleToken: string | null): Promise<string | null> {
    // Another tab (or an earlier refresh here) already replaced the token that failed: use it.
    const current = storage.getItem(keys.authToken)
    if (current && current !== staleToken) return current

    const refreshToken = storage.getItem(keys.refreshToken)
    if (!refreshToken) {
      clearSession()
      return null
    }
    let tokens: RefreshedTokens
    try {
      tokens = await send<RefreshedTokens>("post", REFRESH_PATH, { json: { refreshToken } })
    } catch (error) {
      // Only the server's refusal ends the session; an outage or a lost connection must not log the user out.
      if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
        clearSession()
        return null
      }
      throw error
    }
    if (typeof tokens?.token !== "string" || !tokens.token) throw invalidResponse(200)
    storage.setItem(keys.authToken, tokens.token)
    // The refresh token rotates; keep the old one only if a server ever omits it.
    if (typeof tokens.refreshToken === "string" && tokens.refreshToken) storage.setItem(keys.refreshToken, tokens.refreshToken)
    onTokensRefreshed?.(tokens)
    return tokens.token
  }

  function clearSession(): void {
    storage.removeItem(keys.authToken)
    storage.removeItem(keys.refreshToken)
    storage.removeItem(keys.user)
    // Cached answers belong to the user who just left.
    cache.clear()
    onSessionCleared?.()
  }

  function clearCache(prefix = ""): void {
    for (const [key, entry] of cache) if (entry.path.startsWith(prefix)) cache.delete(key)
  }

  /** A successful write makes cached GETs of the same resource stale. */
  function invalidate(path: string): void {
    const group = SAME_RESOURCE_PATHS.find((paths) => paths.includes(path)) ?? [path]
    for (const [key, entry] of cache) if (group.includes(entry.path)) cache.delete(key)
  }

  async function write<T>(method: Exclude<Method, "get">, path: string, init: SendInit): Promise<T> {
    const data = await send<T>(method, path, init)
    invalidate(path)
    return data
  }

  return {
    async get<T = unknown>(path: string, { params, cache: useCache = false, signal }: GetOptions = {}): Promise<T> {
      const query = toQuery(params)
      const key = `${path}?${query}`
      if (useCache) {
        const hit = cache.get(key)
        if (hit && hit.expiresAt > clock()) return hit.data as T
        cache.delete(key)
      }
      const data = await send<T>("get", path, { query, signal })
      if (useCache) cache.set(key, { path, data, expiresAt: clock() + API_GET_CACHE_TTL_MS })
      return data
    },
    post: <T = unknown>(path: string, body?: unknown, { signal }: RequestOptions = {}) => write<T>("post", path, { json: body, signal }),
    put: <T = unknown>(path: string, body?: unknown, { signal }: RequestOptions = {}) => write<T>("put", path, { json: body, signal }),
    patch: <T = unknown>(path: string, body?: unknown, { signal }: RequestOptions = {}) => write<T>("patch", path, { json: body, signal }),
    delete: <T = unknown>(path: string, body?: unknown, { signal }: RequestOptions = {}) => write<T>("delete", path, { json: body, signal }),
    /** POST multipart/form-data with the single field `file` (spec section 7). */
    upload<T = unknown>(path: string, file: Blob, { fileName, signal }: UploadOptions = {}): Promise<T> {
      const body = new FormData()
      if (fileName === undefined) body.append("file", file)
      else body.append("file", file, fileName)
      return write<T>("post", path, { body, signal })
    },
    /** POST multipart/form-data with any fields and files (the feedback form's email, message and images). */
    postForm: <T = unknown>(path: string, form: FormData, { signal }: RequestOptions = {}) => write<T>("post", path, { body: form, signal }),
    /** GET of a paginated list: `data` and the `meta` the server sends beside it. Never cached. */
    getPage<T = unknown, M = unknown>(path: string, { params, signal }: Omit<GetOptions, "cache"> = {}): Promise<{ data: T; meta: M }> {
      return send("get", path, { query: toQuery(params), signal }, readPage<T, M>)
    },
    /** GET of a file (an uploaded image) with the bearer token; a refusal is read as the usual error. */
    getBlob(path: string, { signal }: RequestOptions = {}): Promise<Blob> {
      return send("get", path, { signal }, async (response) => {
        if (!response.ok) return readWrapper<never>(response)
        try {
          return await response.blob()
        } catch (error) {
          throw networkError(error)
        }
      })
    },
    /** For the session store's timers; shares the in-flight refresh with failing requests. */
    refreshSession: (): Promise<string | null> => refreshSession(),
    clearCache
  }
}

/** Tabs take turns via the Web Locks API; where it is missing the token check inside the task still avoids most double refreshes. */
async function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : (navigator.locks as LockManager | null | undefined)
  // The lock is held until the task's promise settles; `await` undoes the DOM typing's Promise<Promise<T>>.
  return locks ? await locks.request(REFRESH_LOCK_NAME, task) : task()
}

/** Sorted, so the same params give the same cache key in any order; null and undefined are left out. */
function toQuery(params: QueryParams = {}): string {
  const entries = Object.entries(params)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== null)
    .map(([name, value]): [string, string] => [name, String(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return new URLSearchParams(entries).toString()
}

async function readWrapper<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    throw networkError(error)
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw invalidResponse(response.status)
  }
  if (isRecord(body) && body.success === true && response.ok) return body.data as T
  if (isRecord(body) && body.success === false && isErrorBody(body.error)) throw new ApiRequestError(response.status, body.error)
  throw invalidResponse(response.status)
}

async function readPage<T, M>(response: Response): Promise<{ data: T; meta: M }> {
  const clone = response.clone()
  const data = await readWrapper<T>(response)
  const body = (await clone.json().catch(() => null)) as { meta?: M } | null
  if (!body || body.meta === undefined) throw invalidResponse(response.status)
  return { data, meta: body.meta }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return isRecord(value) && typeof value.code === "string" && typeof value.message === "string"
}

function networkError(cause: unknown): ApiRequestError {
  return new ApiRequestError(0, { code: "NETWORK_ERROR", message: NETWORK_ERROR_MESSAGE }, { cause })
}

function invalidResponse(status: number): ApiRequestError {
  return new ApiRequestError(status, {
    code: INVALID_RESPONSE_CODE,
    message: `The server sent an unexpected response (HTTP ${status}). Please try again later.`
  })
}
