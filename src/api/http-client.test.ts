import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import { fail, ok } from "~core/api"
import { API_REQUEST_TIMEOUT_MS } from "~core/limits"
import { SESSION_STORAGE_KEYS as KEYS } from "~core/user"

import { ApiRequestError, NETWORK_ERROR_MESSAGE, REFRESH_LOCK_NAME, createApiClient, webStorageTokens } from "./http-client"

const BASE = "http://api.test"

type Handler = (request: Request, url: URL) => Response | Promise<Response>

const json = (body: unknown, status = 200) => Response.json(body, { status })
const unauthorized = () => json(fail("UNAUTHORIZED", "Authentication required."), 401)

/**
 * A tiny in-memory API behind a fake fetch: it knows one valid access token and one valid refresh token,
 * rotates both on /api/auth/refresh, and records every request it sees.
 */
function fakeServer() {
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

function setup(session: { token?: string; refreshToken?: string } = { token: "t1", refreshToken: "r1" }) {
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
const settle = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: unknown) => ({ error }))

async function caught(promise: Promise<unknown>): Promise<ApiRequestError> {
  const result = await settle(promise)
  if (!("error" in result)) throw new Error("expected a rejection")
  expect(result.error).toBeInstanceOf(ApiRequestError)
  return result.error as ApiRequestError
}

afterEach(() => {
  vi.useRealTimers()
})

describe("wrapper parsing and errors", () => {
  it("returns the data of a success wrapper and turns params into the query string", async () => {
    const { client } = setup()
    const data = await client.get<{ things: number[]; query: string }>("/api/things", { params: { q: "cat dog", page: 2, skip: undefined } })
    expect(data.things).toEqual([1, 2])
    expect(data.query).toBe("?page=2&q=cat+dog")
  })

  it("sends JSON bodies for post, put, patch and delete", async () => {
    const { client, server } = setup()
    const bodies: unknown[] = []
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      server.routes.set(`${method} /api/echo`, async (request) => {
        expect(request.headers.get("content-type")).toContain("application/json")
        bodies.push(await request.json())
        return json(ok(method))
      })
    }
    expect(await client.post("/api/echo", { a: 1 })).toBe("POST")
    expect(await client.put("/api/echo", { a: 2 })).toBe("PUT")
    expect(await client.patch("/api/echo", { a: 3 })).toBe("PATCH")
    expect(await client.delete("/api/echo", { a: 4 })).toBe("DELETE")
    expect(bodies).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }])
  })

  it("carries every field of a failure wrapper on ApiRequestError", async () => {
    const { client, server } = setup()
    server.routes.set("POST /api/auth/login", () =>
      json(fail("PROGRESSIVE_DELAY", "Wait a bit.", { details: ["x"], retryAfter: 30, remainingAttempts: 2, nextAttemptDelay: 4000 }), 429)
    )
    const error = await caught(client.post("/api/auth/login", { email: "a@b.c", password: "p" }))
    expect(error).toMatchObject({
      name: "ApiRequestError",
      status: 429,
      code: "PROGRESSIVE_DELAY",
      message: "Wait a bit.",
      details: ["x"],
      retryAfter: 30,
      remainingAttempts: 2,
      nextAttemptDelay: 4000,
      isNetworkError: false
    })
  })

  it("turns a non-JSON answer into a clean error", async () => {
    const { client, server } = setup()
    server.routes.set("GET /api/html", () => new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }))
    const error = await caught(client.get("/api/html"))
    expect(error).toMatchObject({ status: 502, code: "INVALID_RESPONSE" })
    expect(error.message).toContain("HTTP 502")
  })

  it("turns JSON that is not the wrapper into a clean error", async () => {
    const { client, server } = setup()
    server.routes.set("GET /api/bare", () => json({ hello: "world" }))
    await expect(client.get("/api/bare")).rejects.toMatchObject({ status: 200, code: "INVALID_RESPONSE" })
  })
})

describe("the fetch it is given", () => {
  it("is called as a plain function: a browser's native fetch refuses any other receiver", async () => {
    const strictFetch = function (this: unknown, _input: RequestInfo | URL, _init?: RequestInit): Promise<Response> {
      if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError("Illegal invocation"))
      return Promise.resolve(json(ok("fetched")))
    }
    const client = createApiClient({ baseUrl: BASE, tokens: webStorageTokens(window.localStorage), fetch: strictFetch })
    expect(await client.get("/api/public")).toBe("fetched")
  })
})

describe("network failures", () => {
  it("gives NETWORK_ERROR when the server cannot be reached", async () => {
    const { client, server } = setup()
    server.fetch.mockRejectedValueOnce(new TypeError("Failed to fetch"))
    const error = await caught(client.get("/api/things"))
    expect(error).toMatchObject({ status: 0, code: "NETWORK_ERROR", message: NETWORK_ERROR_MESSAGE, isNetworkError: true })
  })

  it("lets a cancellation by the caller through as an abort, not as a connection error", async () => {
    const { client, server } = setup()
    server.fetch.mockImplementationOnce(
      (input) => new Promise<Response>((_, reject) => (input as Request).signal.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError"))))
    )
    const controller = new AbortController()
    const pending = settle(client.get("/api/things", { signal: controller.signal }))
    await vi.waitFor(() => expect(server.fetch).toHaveBeenCalled())
    controller.abort()
    const result = await pending
    expect("error" in result && result.error).toMatchObject({ name: "AbortError" })
  })

  it("gives NETWORK_ERROR when the server does not answer within 8 s", async () => {
    vi.useFakeTimers()
    const { client, server } = setup()
    server.fetch.mockImplementationOnce(() => new Promise<Response>(() => {}))
    const pending = settle(client.get("/api/things"))
    let done = false
    void pending.then(() => (done = true))

    await vi.advanceTimersByTimeAsync(API_REQUEST_TIMEOUT_MS - 1)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const result = await pending
    expect("error" in result && result.error).toMatchObject({ code: "NETWORK_ERROR", message: NETWORK_ERROR_MESSAGE })
  })
})

describe("bearer token", () => {
  it("sends the stored token, read at send time", async () => {
    const { client, server, storage } = setup()
    await client.get("/api/things")
    server.state.token = "from-other-tab"
    storage.setItem(KEYS.authToken, "from-other-tab")
    await client.get("/api/things")
    expect(server.seen.map((r) => r.auth)).toEqual(["Bearer t1", "Bearer from-other-tab"])
  })

  it("sends no Authorization header without a token", async () => {
    const { client, server } = setup({})
    server.routes.set("GET /api/public", () => json(ok("hi")))
    expect(await client.get("/api/public")).toBe("hi")
    expect(server.seen[0]?.auth).toBeNull()
  })
})

describe("401 and token refresh", () => {
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

describe("upload", () => {
  it("posts multipart/form-data with a single field named file", async () => {
    const { client, server } = setup()
    let received: { contentType: string | null; fields: string[]; name?: string; text?: string } | undefined
    server.routes.set("POST /api/images", async (request) => {
      const form = await request.formData()
      const file = form.get("file")
      received = {
        contentType: request.headers.get("content-type"),
        fields: [...form.keys()],
        ...(file instanceof Blob ? { name: (file as File).name, text: await file.text() } : {})
      }
      return json(ok({ id: 7 }), 201)
    })
    const file = new File(["pixels"], "cat.png", { type: "image/png" })
    expect(await client.upload("/api/images", file)).toEqual({ id: 7 })
    expect(received?.contentType).toMatch(/^multipart\/form-data; boundary=/)
    expect(received?.fields).toEqual(["file"])
    expect(received?.name).toBe("cat.png")
    expect(received?.text).toBe("pixels")
    expect(server.seen[0]?.auth).toBe("Bearer t1")
  })
})

describe("forms, pages and files", () => {
  it("posts any multipart form as it is", async () => {
    const { client, server } = setup()
    let fields: [string, string][] = []
    server.routes.set("POST /api/feedback", async (request) => {
      const form = await request.formData()
      fields = [...form.entries()].map(([name, value]) => [name, typeof value === "string" ? value : (value as File).name])
      return json(ok({ id: "f1" }), 201)
    })
    const form = new FormData()
    form.append("email", "a@example.com")
    form.append("images", new File(["1"], "one.png"))
    form.append("images", new File(["2"], "two.png"))
    expect(await client.postForm("/api/feedback", form)).toEqual({ id: "f1" })
    expect(fields).toEqual([["email", "a@example.com"], ["images", "one.png"], ["images", "two.png"]])
  })

  it("reads a page's data and the meta beside it, refreshing the token on a 401 like any call", async () => {
    const { client, server } = setup({ token: "stale", refreshToken: "r1" })
    server.routes.set("GET /api/feedback", (request, url) =>
      server.authorized(request) ? json({ success: true, data: [{ id: 1 }], meta: { total: 1, query: url.search } }) : unauthorized()
    )
    expect(await client.getPage("/api/feedback", { params: { page: 2 } })).toEqual({ data: [{ id: 1 }], meta: { total: 1, query: "?page=2" } })
    expect(server.state.generation).toBe(2)
    server.routes.set("GET /api/plain", () => json(ok([1])))
    expect((await caught(client.getPage("/api/plain"))).code).toBe("INVALID_RESPONSE")
  })

  it("fetches a file with the bearer token and reads a refusal as the usual error", async () => {
    const { client, server } = setup()
    server.routes.set("GET /api/feedback/images/a.png", (request) =>
      server.authorized(request) ? new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } }) : unauthorized()
    )
    const blob = await client.getBlob("/api/feedback/images/a.png")
    expect(blob.type).toBe("image/png")
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([137, 80, 78, 71])
    expect((await caught(client.getBlob("/api/feedback/images/missing.png"))).code).toBe("NOT_FOUND")
  })
})
