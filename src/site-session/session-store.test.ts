import { toast } from "~ui/toast"
import { beforeEach, describe, expect, it, vi } from "vitest"

import { ApiRequestError, INVALID_RESPONSE_CODE } from "~http/http-client"
import { fail, ok } from "~core/api-answer"
import { EXTENSION_TOKEN_LIFETIME_MS } from "~core/extension-messages"
import { LOGOUT_FAILURE_REDIRECT_MS, LOGOUT_FLAG_RESET_MS, PROFILE_FETCH_DELAY_MS } from "~site-session/session-store"
import { REFRESH_AFTER_USER_SET_MS } from "~site-session/token-monitor"
import { SESSION_STORAGE_KEYS as KEYS, type User } from "~core/user"

import { LOGOUT_SERVER_FAILURE_MESSAGE, readStoredUser, useSession } from "./session-store"
import { NOW, json, sessionTestKit, storeSession, storedItems, user } from "./session-test-kit"

vi.mock("~ui/toast", () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const kit = sessionTestKit()

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
    expect(kit.sent).toEqual([])
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
    expect(kit.sent).toEqual([
      {
        type: "WEBSITE_AUTH_SYNC",
        payload: { user, tokens: { authToken: "t0", refreshToken: null, expiresAt: NOW + EXTENSION_TOKEN_LIFETIME_MS } },
        timestamp: NOW
      }
    ])
    expect(JSON.stringify(kit.sent)).not.toContain("r0")
  })

  it("fetches the profile 1 s later, then stores and shows the new user and syncs it", async () => {
    vi.useFakeTimers({ now: NOW })
    storeSession()
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(PROFILE_FETCH_DELAY_MS - 1)
    expect(kit.server.calls("GET", "/api/auth/profile")).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(kit.server.calls("GET", "/api/auth/profile")).toEqual([expect.objectContaining({ auth: "Bearer t0" })])
    const updated = { ...user, name: "Ada Lovelace" }
    expect(useSession.getState().user).toEqual(updated)
    expect(JSON.parse(localStorage.getItem(KEYS.user)!)).toEqual(updated)
    expect(kit.sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_SYNC", "WEBSITE_AUTH_SYNC"])
    expect(kit.sent[1]?.payload.user).toEqual(updated)
  })

  it("keeps the session when the profile fetch fails, and sends no second sync for an unchanged user", async () => {
    vi.useFakeTimers({ now: NOW })
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    kit.server.routes.set("GET /api/auth/profile", () => json(fail("INTERNAL_ERROR", "Boom"), 500))
    storeSession()
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(PROFILE_FETCH_DELAY_MS)
    expect(warn).toHaveBeenCalled()
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })

    kit.server.routes.set("GET /api/auth/profile", () => json(ok({ user })))
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(PROFILE_FETCH_DELAY_MS)
    expect(kit.sent.map((message) => message.type)).toEqual(["WEBSITE_AUTH_SYNC", "WEBSITE_AUTH_SYNC"])
  })

  it("drops a profile answer that arrives after a logout", async () => {
    vi.useFakeTimers({ now: NOW })
    let answer!: (response: Response) => void
    kit.server.routes.set("GET /api/auth/profile", () => new Promise<Response>((resolve) => (answer = resolve)))
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
    expect(kit.server.calls("GET", "/api/auth/profile")).toHaveLength(0)

    storeSession()
    useSession.getState().restore()
    const onPro = { ...user, subscription: { plan: { id: "pro" as const, name: "Pro" }, status: "active" } }
    kit.server.routes.set("GET /api/auth/profile", () => json(ok({ user: { ...onPro, id: "u1" } })))
    await useSession.getState().refreshProfile()
    expect(kit.server.calls("GET", "/api/auth/profile")).toHaveLength(1)
    expect(useSession.getState().user).toEqual(onPro)
    expect(JSON.parse(localStorage.getItem(KEYS.user)!)).toEqual(onPro)
    expect(kit.sent.at(-1)).toMatchObject({ type: "WEBSITE_AUTH_SYNC", payload: { user: onPro } })
  })

  it("starts token monitoring: a refresh 5 s after the user is set", async () => {
    vi.useFakeTimers({ now: NOW })
    storeSession()
    useSession.getState().restore()
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS - 1)
    expect(kit.server.calls("POST", "/api/auth/refresh")).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(kit.server.calls("POST", "/api/auth/refresh")).toEqual([expect.objectContaining({ body: { refreshToken: "r0" } })])
    expect(storedItems().slice(0, 2)).toEqual(["t2", "r2"])
  })
})

describe("login", () => {
  it("stores the three items, shows the toast, starts monitoring and notifies LOGIN with expiresAt one hour on", async () => {
    vi.useFakeTimers({ now: NOW })
    await expect(useSession.getState().login("ada@example.com", "pw")).resolves.toEqual(user)
    expect(kit.server.calls("POST", "/api/auth/login")).toEqual([expect.objectContaining({ body: { email: "ada@example.com", password: "pw" } })])
    expect(storedItems()).toEqual(["t1", "r1", JSON.stringify(user)])
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user })
    expect(toast.success).toHaveBeenCalledWith("Successfully logged in!")
    expect(kit.sent).toEqual([
      {
        type: "WEBSITE_AUTH_LOGIN",
        payload: { user, tokens: { authToken: "t1", refreshToken: null, expiresAt: NOW + 60 * 60 * 1000 } },
        timestamp: NOW
      }
    ])
    // The site keeps its refresh token to itself.
    expect(JSON.stringify(kit.sent)).not.toContain("r1")
    await vi.advanceTimersByTimeAsync(REFRESH_AFTER_USER_SET_MS)
    expect(kit.server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
  })

  it("shares one request between duplicate calls", async () => {
    const first = useSession.getState().login("ada@example.com", "pw")
    const second = useSession.getState().login("ada@example.com", "pw")
    expect(second).toBe(first)
    await Promise.all([first, second])
    expect(kit.server.calls("POST", "/api/auth/login")).toHaveLength(1)
    expect(toast.success).toHaveBeenCalledTimes(1)
    // Once settled, a new call makes a new request.
    await useSession.getState().login("ada@example.com", "pw")
    expect(kit.server.calls("POST", "/api/auth/login")).toHaveLength(2)
  })

  it("passes the server's error through and stores nothing", async () => {
    kit.server.routes.set("POST /api/auth/login", () =>
      json(fail("INVALID_CREDENTIALS", "Invalid email or password.", { remainingAttempts: 3, nextAttemptDelay: 0 }), 401)
    )
    const error = await useSession.getState().login("ada@example.com", "bad").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiRequestError)
    expect(error).toMatchObject({ status: 401, code: "INVALID_CREDENTIALS", remainingAttempts: 3 })
    expect(storedItems()).toEqual([null, null, null])
    expect(useSession.getState().status).toBe("loading")
    expect(toast.success).not.toHaveBeenCalled()
    expect(kit.sent).toEqual([])
  })

  it("refuses an answer without a valid user or token", async () => {
    kit.server.routes.set("POST /api/auth/login", () => json(ok({ user: { name: "x" }, token: "t1", refreshToken: "r1" })))
    await expect(useSession.getState().login("ada@example.com", "pw")).rejects.toMatchObject({ code: INVALID_RESPONSE_CODE })
    kit.server.routes.set("POST /api/auth/login", () => json(ok({ user, token: null })))
    await expect(useSession.getState().login("ada@example.com", "pw")).rejects.toMatchObject({ code: INVALID_RESPONSE_CODE })
    expect(storedItems()).toEqual([null, null, null])
  })

  it("acceptSession opens a session from another sign-in answer the same way", () => {
    const admin: User = { ...user, role: "admin", provider: "google", providerId: "g1" }
    expect(useSession.getState().acceptSession({ user: admin, token: "gt", refreshToken: "gr" })).toEqual(admin)
    expect(storedItems()).toEqual(["gt", "gr", JSON.stringify(admin)])
    expect(useSession.getState()).toMatchObject({ status: "loggedIn", user: admin })
    expect(toast.success).toHaveBeenCalledWith("Successfully logged in!")
    expect(kit.sent).toEqual([expect.objectContaining({ type: "WEBSITE_AUTH_LOGIN", payload: expect.objectContaining({ user: admin }) })])
  })
})

describe("logout", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW })
    storeSession("t0", "r0")
    useSession.getState().restore()
    kit.sent = []
    kit.order.length = 0
  })

  it("clears the session, notifies the extension, then tells the server with the old bearer token", async () => {
    const done = useSession.getState().logout()
    // The local part is done at once.
    expect(useSession.getState()).toMatchObject({ status: "loggedOut", user: null, loggingOut: true })
    expect(storedItems()).toEqual([null, null, null])
    await expect(done).resolves.toBe(true)

    const [logout] = kit.server.calls("POST", "/api/auth/logout")
    expect(logout).toMatchObject({ auth: "Bearer t0", body: { refreshToken: "r0" }, storedToken: null })
    expect(kit.order).toEqual(["notify WEBSITE_AUTH_LOGOUT", "server POST /api/auth/logout"])
    expect(kit.sent).toEqual([{ type: "WEBSITE_AUTH_LOGOUT", payload: { user: null, tokens: null }, timestamp: NOW }])
    expect(toast.success).toHaveBeenCalledWith("Successfully logged out!")
    expect(toast.error).not.toHaveBeenCalled()
  })

  it("stops token monitoring and the pending profile fetch", async () => {
    await useSession.getState().logout()
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000)
    expect(kit.server.calls("POST", "/api/auth/refresh")).toHaveLength(0)
    expect(kit.server.calls("GET", "/api/auth/profile")).toHaveLength(0)
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
    kit.server.routes.set("POST /api/auth/logout", handler)
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
    expect(kit.server.calls("POST", "/api/auth/logout")).toHaveLength(1)
    expect(toast.success).toHaveBeenCalledTimes(1)
  })
})
