import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { fail, ok } from "~core/api-answer"
import { SESSION_STORAGE_KEYS as KEYS } from "~core/user"

import { REFRESH_LOCK_NAME, createApiClient, webStorageTokens, type OutgoingRequest } from "./http-client"
import { BASE, caught, fakeServer, json, setup, unauthorized } from "./http-client-test-kit"

afterEach(() => {
  vi.useRealTimers()
})

describe("401 and token refresh", () => {
  it("tells onSend of each request as it goes out: the refused one, the refresh and the retry, with the body as given", async () => {
    const server = fakeServer()
    window.localStorage.setItem(KEYS.authToken, "expired")
    window.localStorage.setItem(KEYS.refreshToken, "r1")
    const sent: OutgoingRequest[] = []
    server.routes.set("POST /api/things", (request) => (server.authorized(request) ? json(ok({ saved: true })) : unauthorized()))
    const client = createApiClient({ baseUrl: BASE, tokens: webStorageTokens(window.localStorage), fetch: server.fetch, onSend: (request) => sent.push(request) })
    await client.post("/api/things", { text: "hello" })
    expect(sent).toEqual([
      { method: "POST", path: "/api/things", json: { text: "hello" }, form: undefined },
      { method: "POST", path: "/api/auth/refresh", json: { refreshToken: "r1" }, form: undefined },
      { method: "POST", path: "/api/things", json: { text: "hello" }, form: undefined }
    ])
    expect(server.seen.map(({ method, path }) => ({ method, path }))).toEqual(sent.map(({ method, path }) => ({ method, path })))
  })

  it("refreshes once, stores both new tokens and retries with the new token", async () => {
    const { client, server, storage, onTokensRefreshed } = setup({ token: "expired", refreshToken: "r1" })
    const data = await client.get<{ auth: string }>("/api/things")
    expect(data.auth).toBe("Bearer t2")
    expect(storage.getItem(KEYS.authToken)).toBe("t2")
    expect(storage.getItem(KEYS.refreshToken)).toBe("r2")
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(server.calls("GET", "/api/things").map((r) => r.auth)).toEqual(["Bearer expired", "Bearer t2"])
    expect(onTokensRefreshed).toHaveBeenCalledWith({ token: "t2", refreshToken: "r2", expiresAt: "2030-01-01T00:00:00.000Z" })
  })

  it("makes three parallel 401s wait for ONE refresh and retries all three", async () => {
    const { client, server } = setup({ token: "expired", refreshToken: "r1" })
    // Hold the refresh answer until all three requests have had their 401.
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const refresh = server.routes.get("POST /api/auth/refresh")!
    server.routes.set("POST /api/auth/refresh", async (request, url) => {
      await gate
      return refresh(request, url)
    })

    const results = Promise.all([1, 2, 3].map((n) => client.get<{ auth: string }>("/api/things", { params: { n } })))
    await vi.waitFor(() => expect(server.calls("GET", "/api/things")).toHaveLength(3))
    release()
    expect((await results).map((d) => d.auth)).toEqual(["Bearer t2", "Bearer t2", "Bearer t2"])
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(server.calls("GET", "/api/things")).toHaveLength(6)
  })

  it("fails all waiting requests and clears the session when the refresh is refused", async () => {
    const { client, server, storage, onSessionCleared, onTokensRefreshed } = setup({ token: "expired", refreshToken: "revoked" })
    const errors = await Promise.all([1, 2, 3].map((n) => caught(client.get("/api/things", { params: { n } }))))
    expect(errors.map((e) => [e.status, e.code])).toEqual([
      [401, "UNAUTHORIZED"],
      [401, "UNAUTHORIZED"],
      [401, "UNAUTHORIZED"]
    ])
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(server.calls("GET", "/api/things")).toHaveLength(3)
    expect([KEYS.authToken, KEYS.refreshToken, KEYS.user].map((k) => storage.getItem(k))).toEqual([null, null, null])
    expect(onSessionCleared).toHaveBeenCalledTimes(1)
    expect(onTokensRefreshed).not.toHaveBeenCalled()
  })

  it("clears the session without calling the server when there is no refresh token", async () => {
    const { client, server, storage, onSessionCleared } = setup({ token: "expired" })
    await expect(client.get("/api/things")).rejects.toMatchObject({ status: 401 })
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(0)
    expect(storage.getItem(KEYS.authToken)).toBeNull()
    expect(storage.getItem(KEYS.user)).toBeNull()
    expect(onSessionCleared).toHaveBeenCalledTimes(1)
  })

  it("keeps the session when the refresh cannot reach the server", async () => {
    const { client, server, storage, onSessionCleared } = setup({ token: "expired", refreshToken: "r1" })
    const realFetch = server.fetch.getMockImplementation()!
    server.fetch.mockImplementation((input, init) =>
      input instanceof Request && input.url.endsWith("/api/auth/refresh") ? Promise.reject(new TypeError("offline")) : realFetch(input, init)
    )
    await expect(client.get("/api/things")).rejects.toMatchObject({ code: "NETWORK_ERROR" })
    expect(storage.getItem(KEYS.authToken)).toBe("expired")
    expect(storage.getItem(KEYS.refreshToken)).toBe("r1")
    expect(onSessionCleared).not.toHaveBeenCalled()
  })

  it("does not refresh again when the retry also gets a 401", async () => {
    const { client, server, storage } = setup({ token: "expired", refreshToken: "r1" })
    server.routes.set("GET /api/admin", () => unauthorized())
    await expect(client.get("/api/admin")).rejects.toMatchObject({ status: 401, code: "UNAUTHORIZED" })
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(server.calls("GET", "/api/admin")).toHaveLength(2)
    expect(storage.getItem(KEYS.authToken)).toBe("t2")
  })

  it("never refreshes for login, register or the refresh call itself", async () => {
    const { client, server, storage } = setup({ token: "expired", refreshToken: "r1" })
    server.routes.set("POST /api/auth/login", () => json(fail("INVALID_CREDENTIALS", "Invalid email or password."), 401))
    server.routes.set("POST /api/auth/register", () => unauthorized())
    await expect(client.post("/api/auth/login", { email: "a@b.c", password: "x" })).rejects.toMatchObject({ code: "INVALID_CREDENTIALS" })
    await expect(client.post("/api/auth/register", {})).rejects.toMatchObject({ status: 401 })
    await expect(client.post("/api/auth/refresh", { refreshToken: "nope" })).rejects.toMatchObject({ code: "SESSION_EXPIRED" })
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(storage.getItem(KEYS.authToken)).toBe("expired")
  })

  it("uses a token another tab stored after the request failed, without refreshing", async () => {
    const { client, server, storage } = setup({ token: "expired", refreshToken: "r1" })
    const things = server.routes.get("GET /api/things")!
    server.routes.set("GET /api/things", (request, url) => {
      if (!server.authorized(request)) {
        // Another tab refreshes while this answer travels back.
        server.state.token = "t-other-tab"
        storage.setItem(KEYS.authToken, "t-other-tab")
      }
      return things(request, url)
    })
    const data = await client.get<{ auth: string }>("/api/things")
    expect(data.auth).toBe("Bearer t-other-tab")
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(0)
  })

  it("keeps the stored refresh token when the answer has none (a twin refresh within the server's grace window)", async () => {
    const { client, server, storage, onTokensRefreshed } = setup({ token: "expired", refreshToken: "r1" })
    server.routes.set("POST /api/auth/refresh", () => {
      // Another context sharing the store refreshed with r1 first and stored the newest refresh token.
      storage.setItem(KEYS.refreshToken, "r-other-context")
      server.state.token = "t-grace"
      return json(ok({ token: "t-grace", refreshToken: null, expiresAt: 1_900_000_000 }))
    })
    const data = await client.get<{ auth: string }>("/api/things")
    expect(data.auth).toBe("Bearer t-grace")
    expect(storage.getItem(KEYS.authToken)).toBe("t-grace")
    expect(storage.getItem(KEYS.refreshToken)).toBe("r-other-context")
    expect(onTokensRefreshed).toHaveBeenCalledWith({ token: "t-grace", refreshToken: "r-other-context", expiresAt: 1_900_000_000 })
  })

  it("hands a store only refresh tokens, never the null of a grace answer", async () => {
    const server = fakeServer()
    server.routes.set("POST /api/auth/refresh", () => {
      server.state.token = "t-grace"
      return json(ok({ token: "t-grace", refreshToken: null, expiresAt: 1_900_000_000 }))
    })
    let stored = { token: "expired", refreshToken: "r1" }
    const saved: unknown[] = []
    const client = createApiClient({
      baseUrl: BASE,
      fetch: server.fetch,
      tokens: {
        read: async () => stored,
        saveRefreshed: async (tokens) => {
          saved.push(tokens)
          stored = { token: tokens.token, refreshToken: tokens.refreshToken }
        },
        clear: async () => {}
      }
    })
    expect((await client.get<{ auth: string }>("/api/things")).auth).toBe("Bearer t-grace")
    expect(saved).toEqual([{ token: "t-grace", refreshToken: "r1", expiresAt: 1_900_000_000 }])
  })

  describe("with the Web Locks API", () => {
    const locks = { request: vi.fn() }
    beforeEach(() => {
      Object.defineProperty(navigator, "locks", { value: locks, configurable: true })
    })
    afterEach(() => {
      Reflect.deleteProperty(navigator, "locks")
      locks.request.mockReset()
    })

    it("refreshes inside the shared lock", async () => {
      locks.request.mockImplementation((_name: string, task: () => Promise<unknown>) => task())
      const { client, server } = setup({ token: "expired", refreshToken: "r1" })
      await client.get("/api/things")
      expect(locks.request).toHaveBeenCalledTimes(1)
      expect(locks.request).toHaveBeenCalledWith(REFRESH_LOCK_NAME, expect.any(Function))
      expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    })

    it("does not refresh again when the tab that held the lock already did", async () => {
      const { client, server, storage } = setup({ token: "expired", refreshToken: "r1" })
      locks.request.mockImplementation(async (_name: string, task: () => Promise<unknown>) => {
        // The other tab held the lock and rotated both tokens before this tab got it.
        server.state.token = "t-other-tab"
        server.state.refreshToken = "r-other-tab"
        storage.setItem(KEYS.authToken, "t-other-tab")
        storage.setItem(KEYS.refreshToken, "r-other-tab")
        return task()
      })
      const data = await client.get<{ auth: string }>("/api/things")
      expect(data.auth).toBe("Bearer t-other-tab")
      expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(0)
    })
  })

  it("exposes refreshSession, sharing the single flight with failing requests", async () => {
    const { client, server, storage } = setup({ token: "expired", refreshToken: "r1" })
    const [a, b, data] = await Promise.all([client.refreshSession(), client.refreshSession(), client.get<{ auth: string }>("/api/things")])
    expect([a, b, data.auth]).toEqual(["t2", "t2", "Bearer t2"])
    expect(server.calls("POST", "/api/auth/refresh")).toHaveLength(1)
    expect(storage.getItem(KEYS.refreshToken)).toBe("r2")
  })

  it("refreshSession resolves to null and stores nothing when the refresh is refused", async () => {
    const { client, storage, onSessionCleared } = setup({ token: "t1", refreshToken: "revoked" })
    expect(await client.refreshSession()).toBeNull()
    expect(storage.getItem(KEYS.authToken)).toBeNull()
    expect(onSessionCleared).toHaveBeenCalledTimes(1)
  })
})
