import { afterEach, describe, expect, it, vi } from "vitest"

import { fail, ok } from "~core/api-answer"
import { API_REQUEST_TIMEOUT_MS } from "~http/http-client"
import { SESSION_STORAGE_KEYS as KEYS } from "~core/user"

import { NETWORK_ERROR_MESSAGE, createApiClient, webStorageTokens } from "./http-client"
import { BASE, caught, json, settle, setup, unauthorized } from "./http-client-test-kit"

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
    server.routes.set("GET /api/feedback-images/a.png", (request) =>
      server.authorized(request) ? new Response(new Uint8Array([137, 80, 78, 71]), { headers: { "content-type": "image/png" } }) : unauthorized()
    )
    const blob = await client.getBlob("/api/feedback-images/a.png")
    expect(blob.type).toBe("image/png")
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([137, 80, 78, 71])
    expect((await caught(client.getBlob("/api/feedback-images/missing.png"))).code).toBe("NOT_FOUND")
  })
})
