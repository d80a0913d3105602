/**
 * What the session tests share: a fake API behind an injected fetch that records every request (with its bearer,
 * body and the token stored at that moment), the messages sent to the extension, and a clean store per test.
 */
import { toast } from "~ui/toast"
import { afterEach, beforeEach, vi } from "vitest"

import { fail, ok } from "~core/api-answer"
import { type WebsiteMessage } from "~core/extension-messages"
import { SESSION_STORAGE_KEYS as KEYS, type User } from "~core/user"

import { configureExtensionNotifier } from "./extension-notifier"
import { teardownSession, useSession } from "./session-store"
import { configureApi } from "./site-client"

export const BASE = "http://api.test"
export const NOW = Date.UTC(2030, 0, 1, 12)
export const user: User = { name: "Ada", email: "ada@example.com", role: "user", provider: "email" }

type Handler = (request: Request) => Response | Promise<Response>
export const json = (body: unknown, status = 200) => Response.json(body, { status })

/** A fake API behind an injected fetch; records every request with its bearer and body. */
function fakeServer(order: string[]) {
  const seen: { method: string; path: string; auth: string | null; body: unknown; storedToken: string | null }[] = []
  const routes = new Map<string, Handler>()
  routes.set("POST /api/auth/login", () => json(ok({ user, token: "t1", refreshToken: "r1", expiresAt: "2030-01-01T13:00:00.000Z" })))
  routes.set("POST /api/auth/logout", () => json(ok({ loggedOut: true })))
  routes.set("POST /api/auth/refresh", () => json(ok({ token: "t2", refreshToken: "r2", expiresAt: "2030-01-01T14:00:00.000Z" })))
  routes.set("GET /api/auth/profile", () => json(ok({ user: { ...user, name: "Ada Lovelace", id: "u1" } })))
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init)
    const url = new URL(request.url)
    const text = await request.clone().text()
    seen.push({
      method: request.method,
      path: url.pathname,
      auth: request.headers.get("authorization"),
      body: text ? (JSON.parse(text) as unknown) : undefined,
      storedToken: localStorage.getItem(KEYS.authToken)
    })
    order.push(`server ${request.method} ${url.pathname}`)
    const handler = routes.get(`${request.method} ${url.pathname}`)
    return handler ? handler(request) : json(fail("NOT_FOUND", "Not found."), 404)
  })
  const calls = (method: string, path: string) => seen.filter((r) => r.method === method && r.path === path)
  return { seen, routes, fetch, calls }
}

export function storeSession(token = "t0", refreshToken = "r0", storedUser: unknown = user) {
  localStorage.setItem(KEYS.authToken, token)
  localStorage.setItem(KEYS.refreshToken, refreshToken)
  localStorage.setItem(KEYS.user, JSON.stringify(storedUser))
}

export const storedItems = () => [KEYS.authToken, KEYS.refreshToken, KEYS.user].map((key) => localStorage.getItem(key))

export interface SessionTestKit {
  server: ReturnType<typeof fakeServer>
  /** The messages sent to the extension, in order. */
  sent: WebsiteMessage[]
  /** Requests and extension messages as one sequence ("server POST /api/auth/logout", "notify WEBSITE_AUTH_LOGOUT"). */
  order: string[]
}

/** Registers the per-test set-up and clean-up; the returned kit holds this test's fake server and records. The test file mocks ~ui/toast. */
export function sessionTestKit(): SessionTestKit {
  const kit = {} as SessionTestKit
  beforeEach(() => {
    kit.sent = []
    kit.order = []
    kit.server = fakeServer(kit.order)
    configureApi({ baseUrl: BASE, fetch: kit.server.fetch })
    configureExtensionNotifier({
      transport: (message) => {
        kit.order.push(`notify ${message.type}`)
        kit.sent.push(message)
      }
    })
    useSession.setState({ status: "loading", user: null, loggingOut: false })
    vi.mocked(toast.success).mockClear()
    vi.mocked(toast.error).mockClear()
  })
  afterEach(() => {
    teardownSession()
    configureExtensionNotifier({})
    configureApi({})
    vi.useRealTimers()
    vi.restoreAllMocks()
  })
  return kit
}
