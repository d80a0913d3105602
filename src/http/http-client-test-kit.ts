/**
 * What the HTTP client's tests share: a tiny in-memory API behind a fake fetch, and a client set up against it
 * with a controllable clock and the two session callbacks as spies.
 */
import { expect, vi } from "vitest"

import { fail, ok } from "~core/api-answer"
import { SESSION_STORAGE_KEYS as KEYS } from "~core/user"

import { ApiRequestError, createApiClient, webStorageTokens } from "./http-client"

export const BASE = "http://api.test"

type Handler = (request: Request, url: URL) => Response | Promise<Response>

export const json = (body: unknown, status = 200) => Response.json(body, { status })
export const unauthorized = () => json(fail("UNAUTHORIZED", "Authentication required."), 401)

/**
 * A tiny in-memory API behind a fake fetch: it knows one valid access token and one valid refresh token,
 * rotates both on /api/auth/refresh, and records every request it sees.
 */
export function fakeServer() {
  const state = { token: "t1", refreshToken: "r1", generation: 1 }
  const seen: { method: string; path: string; auth: string | null }[] = []
  const routes = new Map<string, Handler>()
  const authorized = (request: Request) => request.headers.get("authorization") === `Bearer ${state.token}`

  routes.set("POST /api/auth/refresh", async (request) => {
    const body = (await request.json()) as { refreshToken?: string }
    if (body.refreshToken !== state.refreshToken) return json(fail("SESSION_EXPIRED", "Session expired."), 401)
    state.generation += 1
    state.token = `t${state.generation}`
    state.refreshToken = `r${state.generation}`
    return json(ok({ token: state.token, refreshToken: state.refreshToken, expiresAt: "2030-01-01T00:00:00.000Z" }))
  })
  routes.set("GET /api/things", (request, url) =>
    authorized(request) ? json(ok({ things: [1, 2], query: url.search, auth: request.headers.get("authorization") })) : unauthorized()
  )

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init)
    const url = new URL(request.url)
    seen.push({ method: request.method, path: url.pathname, auth: request.headers.get("authorization") })
    const handler = routes.get(`${request.method} ${url.pathname}`)
    return handler ? handler(request, url) : json(fail("NOT_FOUND", "Not found."), 404)
  })

  const calls = (method: string, path: string) => seen.filter((r) => r.method === method && r.path === path)
  return { state, seen, routes, fetch, calls, authorized }
}

export function setup(session: { token?: string; refreshToken?: string } = { token: "t1", refreshToken: "r1" }) {
  const server = fakeServer()
  const storage = window.localStorage
  if (session.token) storage.setItem(KEYS.authToken, session.token)
  if (session.refreshToken) storage.setItem(KEYS.refreshToken, session.refreshToken)
  storage.setItem(KEYS.user, JSON.stringify({ name: "Ada" }))
  let now = 1_000_000
  const clock = { advance: (ms: number) => void (now += ms) }
  const onSessionCleared = vi.fn()
  const onTokensRefreshed = vi.fn()
  const client = createApiClient({ baseUrl: `${BASE}/`, tokens: webStorageTokens(storage), fetch: server.fetch, clock: () => now, onSessionCleared, onTokensRefreshed })
  return { server, storage, client, clock, onSessionCleared, onTokensRefreshed }
}

/** Settles a promise into its value or error, so a rejection is never left unhandled while timers run. */
export const settle = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: unknown) => ({ error }))

export async function caught(promise: Promise<unknown>): Promise<ApiRequestError> {
  const result = await settle(promise)
  if (!("error" in result)) throw new Error("expected a rejection")
  expect(result.error).toBeInstanceOf(ApiRequestError)
  return result.error as ApiRequestError
}

