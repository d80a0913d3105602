/**
 * The one HTTP client of the site, the popup and the side panel: every answer is the {success, data, error}
 * wrapper, read here and nowhere else; the bearer token comes from the host's TokenStore; a 401 refreshes the
 * session once (one refresh shared by every caller and, through the Web Locks API, by every tab of the origin)
 * and retries; every failure is one error type. Server state is cached by react-query, not here.
 */
import ky, { TimeoutError } from "ky"

import { type ApiErrorBody, type ApiErrorCode } from "~core/api-answer"
import { SESSION_STORAGE_KEYS } from "~core/user"
import { SECOND_MS } from "~core/time"

export const API_REQUEST_TIMEOUT_MS = 8 * SECOND_MS

export const NETWORK_ERROR_MESSAGE = "Connection error. Please check your internet connection and try again."
/** Code of an answer that is not the {success, data, error} wrapper (a proxy's HTML page, an empty body...). */
export const INVALID_RESPONSE_CODE = "INVALID_RESPONSE"
/** Code of a call that needs a session made while signed out: it was not sent. */
export const SIGNED_OUT_CODE = "SIGNED_OUT"
export const SIGNED_OUT_MESSAGE = "Not signed in"
export const REFRESH_PATH = "/api/auth/refresh"
/** Web Locks name: tabs of the same origin take turns refreshing, so a rotated refresh token is used only once. */
export const REFRESH_LOCK_NAME = "image-query-ai-refresh"

/** A 401 from these means wrong credentials or a dead refresh token: a new token cannot fix it. */
const NO_REFRESH_PATHS = new Set(["/api/auth/login", "/api/auth/register", REFRESH_PATH])

export type TokenStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">

/** A refreshed session as a host stores it: the new access token, the refresh token to use next, its expiry. */
export interface RefreshedTokens {
  token: string
  refreshToken: string
  /** As the server sends it (seconds since the epoch, or an ISO date from older servers). */
  expiresAt?: string | number
}

/**
 * What the server answers to a refresh. refreshToken is null when the refresh token had just been rotated by another
 * refresh (within the server's grace window): that refresh got the newest refresh token, and only an access token
 * comes back here.
 */
export type RefreshAnswer = Omit<RefreshedTokens, "refreshToken"> & { refreshToken: string | null }

/** The tokens of a signed-in session, as a host keeps them. */
export interface SessionTokens {
  token: string
  refreshToken: string | null
  /** Milliseconds since the epoch, when the host knows it (the extension does; the site reads the token itself). */
  expiresAt?: number
}

/**
 * Where a host keeps its session: the site in localStorage (three items), the extension in chrome.storage.
 * Reads happen at send time, so a token stored by another tab or extension page is picked up.
 */
export interface TokenStore {
  read(): SessionTokens | null | Promise<SessionTokens | null>
  /** Stores the rotated tokens of a refresh of `previous`. */
  saveRefreshed(tokens: RefreshedTokens, previous: SessionTokens): void | Promise<void>
  /** The server refused the refresh of `previous` (or there was nothing to refresh with): forget the session. */
  clear(previous: SessionTokens | null): void | Promise<void>
}

/** The site's store: the session items of SESSION_STORAGE_KEYS in a Web Storage (localStorage by default). */
export function webStorageTokens(storage: TokenStorage): TokenStore {
  const keys = SESSION_STORAGE_KEYS
  return {
    read() {
      const token = storage.getItem(keys.authToken)
      return token ? { token, refreshToken: storage.getItem(keys.refreshToken) } : null
    },
    saveRefreshed(tokens) {
      storage.setItem(keys.authToken, tokens.token)
      storage.setItem(keys.refreshToken, tokens.refreshToken)
    },
    clear() {
      storage.removeItem(keys.authToken)
      storage.removeItem(keys.refreshToken)
      storage.removeItem(keys.user)
    }
  }
}

export interface ApiClientOptions {
  /** Origin of the API, e.g. "https://example.com"; "" for the page's own origin; a function when it can change (extension Settings). */
  baseUrl: string | (() => string | Promise<string>)
  tokens: TokenStore
  fetch?: typeof fetch
  /** Milliseconds since the epoch; measures token expiry. */
  clock?: () => number
  /** Refresh before sending when the stored token expires within this many milliseconds (only for hosts that know the expiry). */
  refreshAheadMs?: number
  /** Calls with the session are refused with SIGNED_OUT, unsent, when there is none (the extension); else they go anonymous. */
  sessionRequired?: boolean
  onSessionCleared?: () => void
  onTokensRefreshed?: (tokens: RefreshedTokens) => void
  /** Told of every request as it goes out (retries and refreshes included): the extension keeps a record of them. */
  onSend?: (request: OutgoingRequest) => void
}

/** A request as it leaves: the path without the origin, and the body as the caller gave it. */
export interface OutgoingRequest {
  method: Uppercase<Method>
  path: string
  json?: unknown
  form?: FormData
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>

/**
 * Which credentials a call carries: the stored session (refreshed on a 401), none, or a token the caller holds
 * (e.g. the site's token that opens the extension's session, or a session being ended), never refreshed.
 */
export type RequestAuth = "session" | "none" | { bearer: string }

export interface RequestOptions {
  signal?: AbortSignal
  auth?: RequestAuth
}

export interface GetOptions extends RequestOptions {
  params?: QueryParams
}

export interface UploadOptions extends RequestOptions {
  /** Name sent for the file part; a File's own name by default. */
  fileName?: string
}

/** Every failure of the client: a wrapper error from the server, an unreadable answer, or no answer at all. */
export class ApiRequestError extends Error implements ApiErrorBody {
  override readonly name = "ApiRequestError"
  /** HTTP status; 0 when the server could not be reached, did not answer in time, or the call was not sent. */
  readonly status: number
  readonly code: ApiErrorCode
  readonly details?: string[]
  readonly retryAfter?: number
  readonly remainingAttempts?: number
  readonly nextAttemptDelay?: number
  /** `data` sent beside the error, e.g. the status report of a 503 from GET /api/status. */
  readonly data?: unknown

  constructor(status: number, body: ApiErrorBody, options?: { cause?: unknown; data?: unknown }) {
    super(body.message, options)
    this.status = status
    this.code = body.code
    this.details = body.details
    this.retryAfter = body.retryAfter
    this.remainingAttempts = body.remainingAttempts
    this.nextAttemptDelay = body.nextAttemptDelay
    this.data = options?.data
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

export function createApiClient(options: ApiClientOptions) {
  const { tokens, clock = Date.now, refreshAheadMs, sessionRequired = false, onSessionCleared, onTokensRefreshed, onSend } = options
  const baseUrl = async () => (typeof options.baseUrl === "string" ? options.baseUrl : await options.baseUrl()).replace(/\/+$/, "")

  const http = ky.create({
    timeout: API_REQUEST_TIMEOUT_MS,
    // One attempt per call: a POST must never be sent twice, and the query layer has its own retry policy.
    retry: 0,
    // Error answers carry the wrapper too; we read every answer ourselves.
    throwHttpErrors: false,
    // Called as a plain function: ky calls it as a method of its options, and a browser's native fetch refuses any
    // other receiver ("Illegal invocation"). Looked up per call, so a fetch replaced after start-up is used.
    fetch: (input, init) => (options.fetch ?? globalThis.fetch)(input, init)
  })

  let refreshing: Promise<string | null> | null = null

  /** One HTTP exchange with the given token; only "no answer" throws here. */
  async function exchange(method: Method, path: string, init: SendInit, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" }
    if (token) headers.authorization = `Bearer ${token}`
    const url = `${await baseUrl()}${path}${init.query ? `?${init.query}` : ""}`
    onSend?.({ method: method.toUpperCase() as Uppercase<Method>, path, json: init.json, form: init.body })
    try {
      return await http(url, { method, headers, json: init.json, body: init.body, signal: init.signal })
    } catch (error) {
      // A cancellation by the caller (e.g. react-query) is not a connection problem: let it through as is.
      if (init.signal?.aborted && !(error instanceof TimeoutError)) throw error
      throw networkError(error)
    }
  }

  /** The stored token to send, refreshed first when it is about to expire; null when signed out. */
  async function sessionToken(): Promise<string | null> {
    const stored = await tokens.read()
    if (!stored) return null
    const due = refreshAheadMs !== undefined && stored.expiresAt !== undefined && stored.expiresAt - clock() < refreshAheadMs
    return due ? refreshSession(stored.token) : stored.token
  }

  /** Sends, and on a 401 refreshes the session once and retries once with the new token. */
  async function send<T>(method: Method, path: string, init: SendInit = {}, read: (response: Response) => Promise<T> = readWrapper): Promise<T> {
    const auth = init.auth ?? "session"
    if (auth !== "session") return read(await exchange(method, path, init, auth === "none" ? null : auth.bearer))
    const sentToken = await sessionToken()
    if (!sentToken && sessionRequired) throw signedOut()
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
  function refreshSession(staleToken: string | null): Promise<string | null> {
    refreshing ??= withRefreshLock(() => refreshUnlessDone(staleToken)).finally(() => {
      refreshing = null
    })
    return refreshing
  }

  async function refreshUnlessDone(staleToken: string | null): Promise<string | null> {
    // Another tab or page (or an earlier refresh here) already replaced the token that failed: use it.
    const current = await tokens.read()
    if (current && current.token !== staleToken) return current.token

    if (!current?.refreshToken) {
      await clearSession(current)
      return null
    }
    let answer: RefreshAnswer
    try {
      answer = await send<RefreshAnswer>("post", REFRESH_PATH, { json: { refreshToken: current.refreshToken }, auth: "none" })
    } catch (error) {
      // Only the server's refusal ends the session; an outage or a lost connection must not log the user out.
      if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
        await clearSession(current)
        return null
      }
      throw error
    }
    if (typeof answer?.token !== "string" || !answer.token) throw invalidResponse(200)
    const refreshToken = answer.refreshToken || (await tokens.read())?.refreshToken
    // Without a refresh token in the answer or in the store, the session was ended here meanwhile: nothing to keep.
    if (!refreshToken) return null
    // An answer without a refresh token keeps the one in the store, which the context that refreshed first has
    // replaced with the newest one; overwriting it would bring back the token just retired.
    const refreshed = { ...answer, refreshToken }
    await tokens.saveRefreshed(refreshed, current)
    onTokensRefreshed?.(refreshed)
    return refreshed.token
  }

  async function clearSession(previous: SessionTokens | null): Promise<void> {
    await tokens.clear(previous)
    onSessionCleared?.()
  }

  const write = <T>(method: Exclude<Method, "get">, path: string, init: SendInit): Promise<T> => send<T>(method, path, init)

  return {
    get: <T = unknown>(path: string, { params, signal, auth }: GetOptions = {}): Promise<T> =>
      send<T>("get", path, { query: toQuery(params), signal, auth }),
    post: <T = unknown>(path: string, body?: unknown, init: RequestOptions = {}) => write<T>("post", path, { json: body, ...init }),
    put: <T = unknown>(path: string, body?: unknown, init: RequestOptions = {}) => write<T>("put", path, { json: body, ...init }),
    patch: <T = unknown>(path: string, body?: unknown, init: RequestOptions = {}) => write<T>("patch", path, { json: body, ...init }),
    delete: <T = unknown>(path: string, body?: unknown, init: RequestOptions = {}) => write<T>("delete", path, { json: body, ...init }),
    /** POST multipart/form-data with the single field `file`. */
    upload<T = unknown>(path: string, file: Blob, { fileName, ...init }: UploadOptions = {}): Promise<T> {
      const body = new FormData()
      if (fileName === undefined) body.append("file", file)
      else body.append("file", file, fileName)
      return write<T>("post", path, { body, ...init })
    },
    /** POST multipart/form-data with any fields and files (the feedback form's email, message and images). */
    postForm: <T = unknown>(path: string, form: FormData, init: RequestOptions = {}) => write<T>("post", path, { body: form, ...init }),
    /** PUT multipart/form-data (an organisation's logo, which replaces the one before). */
    putForm: <T = unknown>(path: string, form: FormData, init: RequestOptions = {}) => write<T>("put", path, { body: form, ...init }),
    /** GET of a paginated list: `data` and the `meta` the server sends beside it. */
    getPage<T = unknown, M = unknown>(path: string, { params, ...init }: GetOptions = {}): Promise<{ data: T; meta: M }> {
      return send("get", path, { query: toQuery(params), ...init }, readPage<T, M>)
    },
    /** GET of a file (an uploaded image) with the bearer token; a refusal is read as the usual error. */
    getBlob(path: string, init: RequestOptions = {}): Promise<Blob> {
      return send("get", path, init, async (response) => {
        if (!response.ok) return readWrapper<never>(response)
        try {
          return await response.blob()
        } catch (error) {
          throw networkError(error)
        }
      })
    },
    /** For the session store's timers; shares the in-flight refresh with failing requests. */
    refreshSession: async (): Promise<string | null> => refreshSession((await tokens.read())?.token ?? null)
  }
}

/** Tabs take turns via the Web Locks API; where it is missing the token check inside the task still avoids most double refreshes. */
async function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === "undefined" ? undefined : (navigator.locks as LockManager | null | undefined)
  // The lock is held until the task's promise settles; `await` undoes the DOM typing's Promise<Promise<T>>.
  return locks ? await locks.request(REFRESH_LOCK_NAME, task) : task()
}

/** Sorted, so the same params give the same query string in any order; null and undefined are left out. */
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
  if (isRecord(body) && body.success === false && isErrorBody(body.error)) throw new ApiRequestError(response.status, body.error, { data: body.data })
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

function signedOut(): ApiRequestError {
  return new ApiRequestError(0, { code: SIGNED_OUT_CODE, message: SIGNED_OUT_MESSAGE })
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
