import { toast } from "~ui/toast"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { ApiRequestError, INVALID_RESPONSE_CODE } from "~api/http-client"
import { fail, ok } from "~core/api"
import { type WebsiteMessage } from "~core/extension-messages"
import {
  EXTENSION_TOKEN_LIFETIME_MS,
  LOGOUT_FAILURE_REDIRECT_MS,
  LOGOUT_FLAG_RESET_MS,
  PROFILE_FETCH_DELAY_MS,
  REFRESH_AFTER_USER_SET_MS
} from "~core/limits"
import { SESSION_STORAGE_KEYS as KEYS, type User } from "~core/user"

import { configureApi, getApiClient } from "./site-api"
import { configureExtensionNotifier } from "./extension-notifier"
import {
  LOGOUT_SERVER_FAILURE_MESSAGE,
  WEBSITE_LOGOUT_EVENT,
  handleExtensionMessage,
  readStoredUser,
  teardownSession,
  useSession
} from "./session-store"

vi.mock("~ui/toast", () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const BASE = "http://api.test"
const NOW = Date.UTC(2030, 0, 1, 12)
const user: User = { name: "Ada", email: "ada@example.com", role: "user", provider: "email" }

type Handler = (request: Request) => Response | Promise<Response>
const json = (body: unknown, status = 200) => Response.json(body, { status })

/** A fake API behind an injected fetch; records every request with its bearer and body. */
function fakeServer() {
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

let server: ReturnType<typeof fakeServer>
let sent: WebsiteMessage[]
let order: string[]

function storeSession(token = "t0", refreshToken = "r0", storedUser: unknown = user) {
  localStorage.setItem(KEYS.authToken, token)
  localStorage.setItem(KEYS.refreshToken, refreshToken)
  localStorage.setItem(KEYS.user, JSON.stringify(storedUser))
}

const storedItems = () => [KEYS.authToken, KEYS.refreshToken, KEYS.user].map((key) => localStorage.getItem(key))

beforeEach(() => {
  server = fakeServer()
  sent = []
  order = []
  configureApi({ baseUrl: BASE, fetch: server.fetch })
  configureExtensionNotifier({
    transport: (message) => {
      order.push(`notify ${message.type}`)
      sent.push(message)
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

describe("restoring the browser session", () => {
  it("restores a stored user when a token is stored too", () => {
    localStorage.setItem(KEYS.authToken, "t")
    localStorage.setItem(KEYS.user, JSON.stringify(user))
    useSession.getState().restore()
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })
  })

  it.each([
    ["no token", null, JSON.stringify(user)],
    ["no user", "t", null],
    ["a user that is not JSON", "t", "{oops"],
    ["a user with an unknown role", "t", JSON.stringify({ ...user, role: "root" })],
    ["a user without an email", "t", JSON.stringify({ name: "x", role: "user", provider: "email" })]
  ])("is logged out with %s", (_label, token, storedUser) => {
    if (token) localStorage.setItem(KEYS.authToken, token)
    if (storedUser) localStorage.setItem(KEYS.user, storedUser)
    expect(readStoredUser(localStorage)).toBeNull()
    useSession.getState().restore()
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null })
    expect(sent).toEqual([])
  })

  it("reads from the storage it is given", () => {
    const items = new Map<string, string>([
      [KEYS.authToken, "t"],
      [KEYS.user, JSON.stringify(user)]
    ])
    const storage = { getItem: (key: string) => items.get(key) ?? null, setItem: vi.fn(), removeItem: vi.fn() }
    useSession.getState().restore(storage)
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })
  })

  it("sends WEBSITE_AUTH_SYNC with the stored access token, expiring in one hour, and never the refresh token", () => {
    vi.useFakeTimers({ now: NOW })
    storeSession()
    useSession.getState().restore()
    expect(sent).toEqual([
      {
        type: "WEBSITE_AUTH_SYNC",
        payload: { user, tokens: { authToken: "t0", refreshToken: null, expiresAt: NOW + EXTENSION_TOKEN_LIFETIME_MS } },
        timestamp: NOW
      }
    ])
    expect(JSON.stringify(sent)).not.toContain("r0")
  })

  it("fetches the profile 1 s later, then stores and shows the new user and syncs it", async () => {
    vi.useFakeTimers({ now: NOW })
    storeSession()
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(PROFILE_FETCH_DELAY_MS - 1)
    expect(server.calls("GET", "/api/auth/profile")).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.calls("GET", "/api/auth/profile")).toEqual([expect.objectContaining({ auth: "Bearer t0" })])
    const updated = { ...user, name: "Ada Lovelace" }
    expect(useSession.getState().user).toEqual(updated)
    expect(JSON.parse(localStorage.getItem(KEYS.user)!)).toEqual(updated)
    expect(sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_SYNC", "WEBSITE_AUTH_SYNC"])
    expect(sent[1]?.payload.user).toEqual(updated)
  })

  it("keeps the session when the profile fetch fails, and sends no second sync for an unchanged user", async () => {
    vi.useFakeTimers({ now: NOW })
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    server.routes.set("GET /api/auth/profile", () => json(fail("INTERNAL_ERROR", "Boom"), 500))
    storeSession()
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(PROFILE_FETCH_DELAY_MS)
    expect(warn).toHaveBeenCalled()
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })

    server.routes.set("GET /api/auth/profile", () => json(ok({ user })))
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(PROFILE_FETCH_DELAY_MS)
    expect(sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_SYNC", "WEBSITE_AUTH_SYNC"])
  })

  it("drops a profile answer that arrives after a logout", async () => {
    vi.useFakeTimers({ now: NOW })
    let answer!: (response: Response) => void
    server.routes.set("GET /api/auth/profile", () => new Promise<Response>((resolve) => (answer = resolve)))
    storeSession()
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(PROFILE_FETCH_DELAY_MS)
    await useSession.getState().logout()
    answer(json(ok({ user })))
    await vi.advanceTimersByTimeAsync(0)
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null })
    expect(localStorage.getItem(KEYS.user)).toBeNull()
  })

  it("refreshes the profile on demand (after a plan change), and not while signed out", async () => {
    await useSession.getState().refreshProfile()
    expect(server.calls("GET", "/api/auth/profile")).toHaveLength(0)

    storeSession()
    useSession.getState().restore()
    const onPro = { ...user, subscription: { plan: { id: "pro" as const, name: "Pro" }, status: "active" } }
    server.routes.set("GET /api/auth/profile", () => json(ok({ user: { ...onPro, id: "u1" } })))
    await useSession.getState().refreshProfile()
    expect(server.calls("GET", "/api/auth/profile")).toHaveLength(1)
    expect(useSession.getState().user).toEqual(onPro)
    expect(JSON.parse(localStorage.getItem(KEYS.user)!)).toEqual(onPro)
    expect(sent.at(-1)).toMatchObject({ type: "WEBSITE_AUTH_SYNC", payload: { user: onPro } })
  })

  it("starts token monitoring: a refresh 5 s after the user is set", async () => {
    vi.useFakeTimers({ now: NOW })
    storeSession()
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS - 1)
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.calls("POST", "/api/auth/refresh")).toEqual([expect.objectContaining({ body: { refreshToken: "r0" } })])
    expect(storedItems().slice(0, 2)).toEqual(["t2", "r2"])
  })
})

describe("login", () => {
  it("stores the three items, shows the toast, starts monitoring and notifies LOGIN with expiresAt one hour on", async () => {
    vi.useFakeTimers({ now: NOW })
    await expect(useSession.getState().login("ada@example.com", "pw")).resolves.toEqual(user)
    expect(server.calls("POST", "/api/auth/login")).toEqual([expect.objectContaining({ body: { email: "ada@example.com", password: "pw" } })])
    expect(storedItems()).toEqual(["t1", "r1", JSON.stringify(user)])
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })
    expect(toast.success).toHaveBeenCalledWith("Successfully logged in!")
    expect(sent).toEqual([
      {
        type: "WEBSITE_AUTH_LOGIN",
        payload: { user, tokens: { authToken: "t1", refreshToken: null, expiresAt: NOW + 60 * 60 * 1000 } },
        timestamp: NOW
      }
    ])
    // The site keeps its refresh token to itself.
    expect(JSON.stringify(sent)).not.toContain("r1")
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS)
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
  })

  it("shares one request between duplicate calls", async () => {
    const first = useSession.getState().login("ada@example.com", "pw")
    const second = useSession.getState().login("ada@example.com", "pw")
    expect(second).toBe(first)
    await Promise.all([first, second])
    expect(server.calls("POST", "/api/auth/login")).toHaveLength(1)
    expect(toast.success).toHaveBeenCalledTimes(1)
    // Once settled, a new call makes a new request.
    await useSession.getState().login("ada@example.com", "pw")
    expect(server.calls("POST", "/api/auth/login")).toHaveLength(2)
  })

  it("passes the server's error through and stores nothing", async () => {
    server.routes.set("POST /api/auth/login", () =>
      json(fail("INVALID_CREDENTIALS", "Invalid email or password.", { remainingAttempts: 3, nextAttemptDelay: 0 }), 401)
    )
    const error = await useSession.getState().login("ada@example.com", "bad").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiRequestError)
    expect(error).toMatchObject({ status: 401, code: "INVALID_CREDENTIALS", remainingAttempts: 3 })
    expect(storedItems()).toEqual([null, null, null])
    expect(useSession.getState().status).toBe("loading")
    expect(toast.success).not.toHaveBeenCalled()
    expect(sent).toEqual([])
  })

  it("refuses an answer without a valid user or token", async () => {
    server.routes.set("POST /api/auth/login", () => json(ok({ user: { name: "x" }, token: "t1", refreshToken: "r1" })))
    await expect(useSession.getState().login("ada@example.com", "pw")).rejects.toMatchObject({ code: INVALID_RESPONSE_CODE })
    server.routes.set("POST /api/auth/login", () => json(ok({ user, token: null })))
    await expect(useSession.getState().login("ada@example.com", "pw")).rejects.toMatchObject({ code: INVALID_RESPONSE_CODE })
    expect(storedItems()).toEqual([null, null, null])
  })

  it("acceptSession opens a session from another sign-in answer the same way", () => {
    const admin: User = { ...user, role: "admin", provider: "google", providerId: "g1" }
    expect(useSession.getState().acceptSession({ user: admin, token: "gt", refreshToken: "gr" })).toEqual(admin)
    expect(storedItems()).toEqual(["gt", "gr", JSON.stringify(admin)])
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user: admin })
    expect(toast.success).toHaveBeenCalledWith("Successfully logged in!")
    expect(sent).toEqual([expect.objectContaining({ type: "WEBSITE_AUTH_LOGIN", payload: expect.objectContaining({ user: admin }) })])
  })
})

describe("logout", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW })
    storeSession("t0", "r0")
    useSession.getState().restore()
    sent = []
    order = []
  })

  it("clears the session, notifies the extension, then tells the server with the old bearer token", async () => {
    const done = useSession.getState().logout()
    // The local part is done at once.
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null, loggingOut: true })
    expect(storedItems()).toEqual([null, null, null])
    await expect(done).resolves.toBe(true)

    const [logout] = server.calls("POST", "/api/auth/logout")
    expect(logout).toMatchObject({ auth: "Bearer t0", body: { refreshToken: "r0" }, storedToken: null })
    expect(order).toEqual(["notify WEBSITE_AUTH_LOGOUT", "server POST /api/auth/logout"])
    expect(sent).toEqual([{ type: "WEBSITE_AUTH_LOGOUT", payload: { user: null, tokens: null }, timestamp: NOW }])
    expect(toast.success).toHaveBeenCalledWith("Successfully logged out!")
    expect(toast.error).not.toHaveBeenCalled()
  })

  it("clears the client's GET cache", async () => {
    server.routes.set("GET /api/things", () => json(ok({ n: server.calls("GET", "/api/things").length })))
    await getApiClient().get("/api/things", { cache: true })
    await useSession.getState().logout()
    await getApiClient().get("/api/things", { cache: true })
    expect(server.calls("GET", "/api/things")).toHaveLength(2)
  })

  it("stops token monitoring and the pending profile fetch", async () => {
    await useSession.getState().logout()
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000)
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(0)
    expect(server.calls("GET", "/api/auth/profile")).toHaveLength(0)
  })

  it("resets the logging-out flag 2 s after it finished, and leaves navigation to the caller on success", async () => {
    const navigate = vi.fn()
    await useSession.getState().logout({ navigate })
    await vi.advanceTimersByTimeAsync(LOGOUT_FLAG_RESET_MS - 1)
    expect(useSession.getState().loggingOut).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(useSession.getState().loggingOut).toBe(false)
    expect(navigate).not.toHaveBeenCalled()
  })

  it.each([
    ["answers with an error", () => json(fail("INTERNAL_ERROR", "Boom"), 500)],
    [
      "cannot be reached",
      () => {
        throw new TypeError("fetch failed")
      }
    ]
  ])("when the server %s: error toast, /login after 1 s, flag reset after 2 s", async (_label, handler) => {
    vi.spyOn(console, "warn").mockImplementation(() => {})
    server.routes.set("POST /api/auth/logout", handler)
    const navigate = vi.fn()
    await expect(useSession.getState().logout({ navigate })).resolves.toBe(false)
    expect(toast.error).toHaveBeenCalledWith("Logout completed locally, but there was an issue with the server")
    expect(LOGOUT_SERVER_FAILURE_MESSAGE).toBe("Logout completed locally, but there was an issue with the server")
    expect(toast.success).not.toHaveBeenCalled()
    expect(storedItems()).toEqual([null, null, null])
    expect(useSession.getState().status).toBe("loggedOut")

    await vi.advanceTimersByTimeAsync(LOGOUT_FAILURE_REDIRECT_MS - 1)
    expect(navigate).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(navigate).toHaveBeenCalledWith("/login")
    expect(useSession.getState().loggingOut).toBe(true)
    await vi.advanceTimersByTimeAsync(LOGOUT_FLAG_RESET_MS - LOGOUT_FAILURE_REDIRECT_MS)
    expect(useSession.getState().loggingOut).toBe(false)
  })

  it("shares one run between duplicate calls", async () => {
    const first = useSession.getState().logout()
    expect(useSession.getState().logout()).toBe(first)
    await first
    expect(server.calls("POST", "/api/auth/logout")).toHaveLength(1)
    expect(toast.success).toHaveBeenCalledTimes(1)
  })
})

describe("the session changing elsewhere", () => {
  const storageEvent = (key: string | null, newValue: string | null) =>
    new StorageEvent("storage", { key, newValue, storageArea: localStorage })

  beforeEach(() => {
    vi.useFakeTimers({ now: NOW })
    // The profile fetch after restore finds the same user: no sync of its own.
    server.routes.set("GET /api/auth/profile", () => json(ok({ user })))
    storeSession()
    useSession.getState().restore()
    sent = []
  })

  it("logs out when another tab removes the user, and stops monitoring", async () => {
    localStorage.removeItem(KEYS.user)
    window.dispatchEvent(storageEvent(KEYS.user, null))
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null })
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000)
    expect(server.seen).toEqual([])
  })

  it("logs out when another tab clears the storage", () => {
    localStorage.clear()
    window.dispatchEvent(storageEvent(null, null))
    expect(useSession.getState().status).toBe("loggedOut")
  })

  it("shows a user changed by another tab", () => {
    const renamed = { ...user, name: "Countess" }
    localStorage.setItem(KEYS.user, JSON.stringify(renamed))
    window.dispatchEvent(storageEvent(KEYS.user, JSON.stringify(renamed)))
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user: renamed })
  })

  it("follows a sign-in in another tab", () => {
    localStorage.clear()
    window.dispatchEvent(storageEvent(null, null))
    storeSession("t9", "r9")
    window.dispatchEvent(storageEvent(KEYS.user, JSON.stringify(user)))
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })
  })

  it("ignores other keys and other storage areas", () => {
    localStorage.removeItem(KEYS.user)
    window.dispatchEvent(storageEvent("theme", "dark"))
    window.dispatchEvent(new StorageEvent("storage", { key: KEYS.user, newValue: null, storageArea: sessionStorage }))
    expect(useSession.getState().status).toBe("loggedIn")
  })

  it("attaches the listener once however often restore runs", () => {
    const add = vi.spyOn(window, "addEventListener")
    useSession.getState().restore()
    useSession.getState().restore()
    expect(add.mock.calls.filter(([type]) => type === "storage")).toHaveLength(0)
  })

  it("logs out when the server refuses the refresh, and tells the extension", async () => {
    server.routes.set("POST /api/auth/refresh", () => json(fail("SESSION_EXPIRED", "Session expired."), 401))
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS)
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null })
    expect(storedItems()).toEqual([null, null, null])
    expect(sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_LOGOUT"])
    // Monitoring stopped.
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000)
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
  })

  it("syncs the extension after a refresh with the new access token, never the new refresh token", async () => {
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS)
    expect(sent).toEqual([
      expect.objectContaining({ type: "WEBSITE_AUTH_SYNC", payload: { user, tokens: expect.objectContaining({ authToken: "t2", refreshToken: null }) } })
    ])
    expect(JSON.stringify(sent)).not.toContain("r2")
  })

  it("setUser stores the user and syncs it", () => {
    const renamed = { ...user, name: "Countess" }
    useSession.getState().setUser(renamed)
    expect(useSession.getState().user).toEqual(renamed)
    expect(JSON.parse(localStorage.getItem(KEYS.user)!)).toEqual(renamed)
    expect(sent).toEqual([expect.objectContaining({ type: "WEBSITE_AUTH_SYNC", payload: expect.objectContaining({ user: renamed }) })])
  })

  it("setUser does nothing while signed out", async () => {
    await useSession.getState().logout()
    useSession.getState().setUser(user)
    expect(useSession.getState().user).toBeNull()
    expect(localStorage.getItem(KEYS.user)).toBeNull()
  })
})

describe("handleExtensionMessage", () => {
  it.each([
    ["a non-object", "EXTENSION_AUTH_STATUS_REQUEST"],
    ["a message without a timestamp", { type: "EXTENSION_AUTH_STATUS_REQUEST" }],
    ["a message with another prefix", { type: "WEBSITE_AUTH_SYNC", timestamp: 1 }],
    ["an unknown EXTENSION_ type", { type: "EXTENSION_DANCE", timestamp: 1 }]
  ])("answers %s with success false and a message", async (_label, raw) => {
    const answer = await handleExtensionMessage(raw)
    expect(answer.success).toBe(false)
    expect(answer).toEqual({ success: false, error: expect.stringMatching(/\S/) })
    expect(sent).toEqual([])
  })

  it("answers a status request with WEBSITE_AUTH_SYNC while signed in", async () => {
    storeSession()
    useSession.getState().restore()
    sent = []
    await expect(handleExtensionMessage({ type: "EXTENSION_AUTH_STATUS_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    expect(sent).toEqual([expect.objectContaining({ type: "WEBSITE_AUTH_SYNC", payload: expect.objectContaining({ user }) })])
  })

  it("answers a status request with WEBSITE_AUTH_LOGOUT while signed out", async () => {
    useSession.getState().restore()
    await expect(handleExtensionMessage({ type: "EXTENSION_AUTH_STATUS_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    expect(sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_LOGOUT"])
  })

  it("logs out on a logout request and raises the website logout event", async () => {
    storeSession()
    useSession.getState().restore()
    const listener = vi.fn(() => expect(useSession.getState().status).toBe("loggedOut"))
    window.addEventListener(WEBSITE_LOGOUT_EVENT, listener)
    try {
      await expect(handleExtensionMessage({ type: "EXTENSION_LOGOUT_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    } finally {
      window.removeEventListener(WEBSITE_LOGOUT_EVENT, listener)
    }
    expect(listener).toHaveBeenCalledTimes(1)
    expect(WEBSITE_LOGOUT_EVENT).toBe("website-logout")
    expect(storedItems()).toEqual([null, null, null])
    expect(server.calls("POST", "/api/auth/logout")).toEqual([expect.objectContaining({ auth: "Bearer t0" })])
  })

  it("raises the event without a logout call when already signed out", async () => {
    useSession.getState().restore()
    const listener = vi.fn()
    window.addEventListener(WEBSITE_LOGOUT_EVENT, listener)
    await expect(handleExtensionMessage({ type: "EXTENSION_LOGOUT_REQUEST", timestamp: 1 })).resolves.toEqual({ success: true })
    window.removeEventListener(WEBSITE_LOGOUT_EVENT, listener)
    expect(listener).toHaveBeenCalledTimes(1)
    expect(server.seen).toHaveLength(0)
    expect(toast.success).not.toHaveBeenCalled()
  })
})
