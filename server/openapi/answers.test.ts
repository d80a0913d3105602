/**
 * Real answers against GET /api/openapi.json: each call of a sign-up, a session, an admin's work, feedback, billing and
 * the analyses is checked against what the document says its route answers for that status (its JSON Schema, or its
 * media type for a file). A field renamed, added or of another type in an answer, or a status the route does not
 * document, fails here.
 */
import type { LightMyRequestResponse } from "fastify"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { completion, PNG_1PX, PNG_DATA_URL, readOutbox, sendJson, signedInUser, startStandIn, type TestApp } from "../test-kit"
import { answerChecker, startDocumentedApp, type OpenApiDocument } from "./openapi-test-kit"

type StandIn = Awaited<ReturnType<typeof startStandIn>>
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD"

const PASSWORD = "Blue-Harbor-42!"
const NEW_PASSWORD = "Quiet-Meadow-73?"

let provider: StandIn
let subject: TestApp
let document: OpenApiDocument
let expectDocumentedAnswer: ReturnType<typeof answerChecker>
let ipCounter = 0
/** Routes whose answers were checked, and those whose schemas their owners have yet to declare. */
const checked = new Set<string>()

beforeAll(async () => {
  provider = await startStandIn((_request, response) => sendJson(response, 200, completion("A small square.")))
  ;({ subject, document } = await startDocumentedApp({ OPENAI_API_KEY: "sk-test-openapi-0123456789", OPENAI_BASE_URL: `${provider.url}/v1`, VQA_MODEL: "house-vision-1" }))
  expectDocumentedAnswer = answerChecker(document)
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
})

interface CallOptions {
  token?: string
  body?: unknown
  params?: Record<string, string>
  query?: Record<string, string>
  headers?: Record<string, string>
  payload?: Buffer
}

/** Calls the route `url` (Fastify's form, /api/feedback/:id) and checks its answer against the document. */
async function call(method: Method, url: string, options: CallOptions = {}): Promise<LightMyRequestResponse> {
  const path = url.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(options.params?.[name] ?? ""))
  const search = options.query ? `?${new URLSearchParams(options.query).toString()}` : ""
  const response = await subject.app.inject({
    method,
    url: path + search,
    // Each call from an address of its own: the per-IP limits are not what is tested here.
    remoteAddress: `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
    ...(options.payload ? { payload: options.payload } : options.body !== undefined ? { payload: options.body as object } : {})
  })
  expectDocumentedAnswer(method, url, response)
  checked.add(`${method} ${url}`)
  return response
}

const dataOf = <T = Record<string, unknown>>(response: LightMyRequestResponse) => (response.json() as { data: T }).data

async function verificationCode(email: string): Promise<string> {
  await subject.app.outbox.idle()
  const link = (await readOutbox(subject.dataDir)).find((message) => message.to.includes(email) && message.subject.startsWith("Verify"))?.link
  return new URL(link!).searchParams.get("oobCode")!
}

async function admin(): Promise<{ id: string; token: string }> {
  const made = await signedInUser(subject.app)
  await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", made.id).execute()
  return made
}

async function multipartFeedback(): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData()
  form.append("email", "visitor@example.com")
  form.append("message", "The side panel does not show my images.")
  form.append("images", new Blob([new Uint8Array(PNG_1PX)], { type: "image/png" }), "square.png")
  const encoded = new Response(form)
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { "content-type": encoded.headers.get("content-type")! } }
}

describe("answers against the reference", () => {
  it("public calls: status, the reference, Firebase and billing settings, the password policy, OCR languages", async () => {
    for (const url of ["/api/status", "/api/openapi.json", "/api/auth/firebase-config", "/api/billing/config", "/api/password-policy/config", "/api/ocr/languages"]) {
      expect((await call("GET", url)).statusCode, url).toBeLessThan(300)
    }
    expect((await call("GET", "/api/ocr/languages/:code", { params: { code: "zzz" } })).statusCode).toBe(404)
  })

  it("a sign-up: registration, verification, sign-in, refresh, the profile and the password, then sign-out", async () => {
    const email = `reader-${Date.now()}@example.com`
    const registered = await call("POST", "/api/auth/register", { body: { email, password: PASSWORD, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true } })
    expect(registered.statusCode).toBe(201)
    const { verificationToken } = dataOf<{ verificationToken: string }>(registered)
    expect((await call("POST", "/api/auth/register", { body: { email, password: PASSWORD, name: "Ada", termsAccepted: true, privacyPolicyAccepted: true } })).statusCode).toBe(409)
    expect((await call("GET", "/api/auth/check-verification", { query: { email, verificationToken } })).statusCode).toBe(200)
    expect((await call("POST", "/api/auth/login", { body: { email, password: PASSWORD } })).statusCode).toBe(403)
    expect((await call("POST", "/api/auth/resend-verification", { body: { email } })).statusCode).toBe(200)
    expect((await call("POST", "/api/auth/verify-email", { body: { oobCode: await verificationCode(email) } })).statusCode).toBe(200)
    expect(dataOf(await call("POST", "/api/auth/sync-verification", { body: { email, verificationToken } }))).toEqual({ verified: true })

    expect((await call("POST", "/api/auth/login", { body: { email, password: "Wrong-Password-1!" } })).statusCode).toBe(401)
    const session = dataOf<{ token: string; refreshToken: string }>(await call("POST", "/api/auth/login", { body: { email, password: PASSWORD } }))
    const renewed = dataOf<{ token: string; refreshToken: string }>(await call("POST", "/api/auth/refresh", { body: { refreshToken: session.refreshToken } }))
    const token = renewed.token
    for (const url of ["/api/auth/profile", "/api/users/profile", "/api/auth/auth-status", "/api/analyze/usage", "/api/billing/subscription"]) {
      expect((await call("GET", url, { token })).statusCode, url).toBe(200)
    }
    expect((await call("PUT", "/api/auth/profile", { token, body: { name: "Ada King" } })).statusCode).toBe(200)
    expect((await call("PUT", "/api/users/profile", { token, body: { name: "" } })).statusCode).toBe(400)
    expect((await call("POST", "/api/auth/extension-session", { token })).statusCode).toBe(200)
    expect((await call("POST", "/api/auth/forgot-password", { body: { email } })).statusCode).toBe(200)
    expect((await call("POST", "/api/auth/change-password", { token, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })).statusCode).toBe(200)
    expect((await call("POST", "/api/auth/unlink", { token, body: { provider: "google", currentPassword: NEW_PASSWORD } })).statusCode).toBe(409)
    expect((await call("GET", "/api/auth/profile")).statusCode).toBe(401)
    expect((await call("POST", "/api/auth/logout", { token, body: { refreshToken: renewed.refreshToken } })).statusCode).toBe(200)

    const again = dataOf<{ token: string }>(await call("POST", "/api/auth/login", { body: { email, password: NEW_PASSWORD } }))
    expect((await call("POST", "/api/auth/logout-all", { token: again.token })).statusCode).toBe(200)
    const last = dataOf<{ token: string }>(await call("POST", "/api/auth/login", { body: { email, password: NEW_PASSWORD } }))
    expect((await call("DELETE", "/api/auth/account", { token: last.token, body: { password: NEW_PASSWORD } })).statusCode).toBe(200)
  })

  it("questions and translations through the vision model, and the plan's usage", async () => {
    const { token } = await signedInUser(subject.app)
    expect((await call("POST", "/api/analyze/ask", { token, body: { image: { dataUrl: PNG_DATA_URL }, question: "What is this?" } })).statusCode).toBe(200)
    expect((await call("POST", "/api/analyze/translate", { token, body: { text: "Emergency exit", targetLanguage: "fr" } })).statusCode).toBe(200)
    expect((await call("POST", "/api/analyze/ask", { token, body: { image: { dataUrl: "data:image/png;base64,AAAA" }, question: "What is this?" } })).statusCode).toBe(400)
    expect(dataOf(await call("GET", "/api/analyze/usage", { token }))).toMatchObject({ used: 2 })
    // Nine images with 8 requests left: both forms of an image in the answer, translated and left for the quota.
    provider.handle((request, response) => {
      const lines = JSON.parse(JSON.parse(request.body).messages[1].content) as string[]
      sendJson(response, 200, completion(JSON.stringify(lines.map((line) => `Ausgang ${line}`))))
    })
    try {
      const images = Array.from({ length: 9 }, (_, index) => ({ lines: [`Exit ${index}`] }))
      const batch = await call("POST", "/api/analyze/translate-images", { token, body: { images, targetLanguage: "de" } })
      expect(dataOf(batch)).toMatchObject({ images: [...Array(8).fill({ lines: [expect.any(String)] }), null], usage: { used: 10 }, quotaExceeded: { retryAfter: expect.any(Number) } })
    } finally {
      provider.handle((_request, response) => sendJson(response, 200, completion("A small square.")))
    }
    expect((await call("POST", "/api/analyze/translate-images", { token, body: { images: [{ lines: ["Exit"] }], targetLanguage: "de" } })).statusCode).toBe(429)
  })

  it("billing in test mode: a trial, a declined card, a payment, its cancellation and resumption", async () => {
    const card = (cardNumber: string) => ({ planId: "pro", annual: false, email: "payer@example.com", cardNumber, expiryMonth: "12", expiryYear: "2030", cvc: "123", cardholderName: "Ada Lovelace", billingAddress: "1 Main Street", country: "GB" })
    const trying = await signedInUser(subject.app)
    expect((await call("POST", "/api/billing/trial", { token: trying.token, body: { planId: "pro" } })).statusCode).toBe(201)
    expect((await call("POST", "/api/billing/test-payment", { token: trying.token, body: card("4000000000000002") })).statusCode).toBe(402)
    const { token } = await signedInUser(subject.app)
    expect((await call("POST", "/api/billing/test-payment", { token, body: card("4242424242424242") })).statusCode).toBe(201)
    expect((await call("POST", "/api/billing/cancel", { token })).statusCode).toBe(200)
    expect((await call("POST", "/api/billing/resume", { token })).statusCode).toBe(200)
    expect((await call("POST", "/api/billing/change", { token, body: { planId: "enterprise", annual: false } })).statusCode).toBe(200)
    expect((await call("GET", "/api/billing/subscription", { token })).statusCode).toBe(200)
    expect((await call("POST", "/api/billing/checkout", { token, body: { planId: "pro", annual: true } })).statusCode).toBe(409)
  })

  it("feedback: sent by anyone, listed, read, answered and deleted by an admin, its image downloaded", async () => {
    const { payload, headers } = await multipartFeedback()
    const sent = await call("POST", "/api/feedback", { payload, headers })
    expect(sent.statusCode).toBe(201)
    const feedback = dataOf<{ id: string; images: string[] }>(sent)
    const { token } = await admin()
    expect((await call("GET", "/api/feedback", { token, query: { page: "1" } })).statusCode).toBe(200)
    // The path form of ?status= (PATH_FORMS, not in the reference) answers what the documented form answers.
    const byQuery = await call("GET", "/api/feedback", { token, query: { status: "pending" } })
    const byPath = (status: string) => subject.app.inject({ method: "GET", url: `/api/feedback/status/${status}`, headers: { authorization: `Bearer ${token}` } })
    expect((await byPath("pending")).json()).toEqual(byQuery.json())
    expect((await byPath("lost")).statusCode).toBe(400)
    expect((await call("GET", "/api/feedback/:id", { token, params: { id: feedback.id } })).statusCode).toBe(200)
    const image = await call("GET", "/api/feedback-images/:name", { token, params: { name: feedback.images[0]!.split("/").pop()! } })
    expect([image.statusCode, image.headers["content-type"]]).toEqual([200, "image/png"])
    expect((await call("PUT", "/api/feedback/:id", { token, params: { id: feedback.id }, body: { status: "closed" } })).statusCode).toBe(200)
    expect((await call("POST", "/api/feedback/:id/reply", { token, params: { id: feedback.id }, body: { message: "Thank you, it is fixed." } })).statusCode).toBe(200)
    expect((await call("DELETE", "/api/feedback/:id", { token, params: { id: feedback.id } })).statusCode).toBe(200)
    expect((await call("GET", "/api/feedback/:id", { token, params: { id: feedback.id } })).statusCode).toBe(404)
  })

  it("an admin's dashboard, request limit and password policy; a user refused them", async () => {
    const { token } = await admin()
    const user = await signedInUser(subject.app, "enterprise")
    expect((await call("GET", "/api/admin/overview", { token })).statusCode).toBe(200)
    expect((await call("GET", "/api/admin/overview", { token: user.token })).statusCode).toBe(403)
    expect((await call("GET", "/api/admin/analytics", { token, query: { days: "90" } })).statusCode).toBe(200)
    expect((await call("GET", "/api/admin/analytics", { token, query: { days: "366" } })).statusCode).toBe(400)
    expect((await call("GET", "/api/admin/billing", { token })).statusCode).toBe(200)
    expect((await call("PUT", "/api/admin/users/:id/request-limit", { token, params: { id: user.id }, body: { limit: 500 } })).statusCode).toBe(200)
    expect((await call("GET", "/api/password-policy/config", { token })).statusCode).toBe(200)
    expect((await call("PUT", "/api/password-policy/rules", { token, body: { ruleName: "minLength", value: 10 } })).statusCode).toBe(200)
    const policy = dataOf<{ config: { rules: unknown; customRules: unknown } }>(await call("GET", "/api/password-policy/config", { token }))
    expect((await call("PUT", "/api/password-policy/config", { token, body: { config: { rules: policy.config.rules, customRules: policy.config.customRules } } })).statusCode).toBe(200)
  })

  it("the admin's accounts: the list, a user's page, a role, a disable, sessions ended, a resend refused, the last admin", async () => {
    const { id: adminId, token } = await admin()
    const user = await signedInUser(subject.app, "pro")
    expect((await call("GET", "/api/admin/users", { token, query: { query: "asker", plan: "pro", sort: "lastSignIn" } })).statusCode).toBe(200)
    expect((await call("GET", "/api/admin/users", { token, query: { page: "0" } })).statusCode).toBe(400)
    expect((await call("GET", "/api/admin/users/:id", { token, params: { id: user.id } })).statusCode).toBe(200)
    expect((await call("GET", "/api/admin/users/:id", { token, params: { id: "00000000-0000-4000-8000-000000000000" } })).statusCode).toBe(404)
    expect((await call("PATCH", "/api/admin/users/:id", { token, params: { id: user.id }, body: { role: "admin" } })).statusCode).toBe(200)
    expect((await call("PATCH", "/api/admin/users/:id", { token, params: { id: user.id }, body: { role: "user", disabled: true } })).statusCode).toBe(200)
    expect((await call("POST", "/api/admin/users/:id/end-sessions", { token, params: { id: user.id } })).statusCode).toBe(200)
    expect((await call("POST", "/api/admin/users/:id/resend-verification", { token, params: { id: user.id } })).statusCode).toBe(409)
    // Every other admin stepped down a moment: this one is the last.
    const others = await subject.database.db.updateTable("users").set({ role: "user" }).where("role", "=", "admin").where("id", "!=", adminId).returning("id").execute()
    expect((await call("PATCH", "/api/admin/users/:id", { token, params: { id: adminId }, body: { disabled: true } })).statusCode).toBe(409)
    if (others.length) await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "in", others.map((row) => row.id)).execute()
  })

  it("API keys and the public API with a key", async () => {
    const owner = await signedInUser(subject.app, "pro")
    const created = await call("POST", "/api/keys", { token: owner.token, body: { name: "reference" } })
    expect(created.statusCode).toBe(201)
    expect((await call("GET", "/api/keys", { token: owner.token })).statusCode).toBe(200)
    const key = dataOf<{ id: string; key: string }>(created)
    expect((await call("GET", "/api/v1/usage", { token: key.key })).statusCode).toBe(200)
    expect((await call("POST", "/api/v1/ask", { token: key.key, body: { image: { dataUrl: PNG_DATA_URL }, question: "What is this?" } })).statusCode).toBe(200)
    expect((await call("POST", "/api/v1/translate", { token: key.key, body: { text: "Exit", targetLanguage: "de" } })).statusCode).toBe(200)
    const image = { image: { dataUrl: await textImageDataUrl("EXIT") } }
    expect((await call("POST", "/api/v1/ocr", { token: key.key, body: image })).statusCode).toBe(200)
    expect((await call("POST", "/api/v1/faces", { token: key.key, body: { ...image, attributes: true } })).statusCode).toBe(200)
    expect((await call("POST", "/api/v1/objects", { token: key.key, body: image })).statusCode).toBe(200)
    expect((await call("POST", "/api/v1/ocr", { token: key.key, body: { image: { dataUrl: "data:text/plain;base64,aGVsbG8=" } } })).statusCode).toBe(415)
    expect((await call("GET", "/api/keys/usage", { token: owner.token, query: { days: "7" } })).statusCode).toBe(200)
    expect((await call("DELETE", "/api/keys/:id", { token: owner.token, params: { id: key.id } })).statusCode).toBe(200)
  }, 60_000)

  it("an organisation: made, read, renamed, an invitation sent, listed and withdrawn, then deleted", async () => {
    const owner = await signedInUser(subject.app, "enterprise")
    expect((await call("POST", "/api/organizations", { token: owner.token, body: { name: "Acme" } })).statusCode).toBe(201)
    expect((await call("GET", "/api/organizations/current", { token: owner.token })).statusCode).toBe(200)
    expect((await call("PATCH", "/api/organizations/current", { token: owner.token, body: { accentColor: "#224466" } })).statusCode).toBe(200)
    const invited = await call("POST", "/api/organizations/current/invitations", { token: owner.token, body: { email: "invitee@example.com", role: "member" } })
    expect(invited.statusCode).toBe(201)
    expect((await call("GET", "/api/organizations/current/invitations", { token: owner.token })).statusCode).toBe(200)
    expect((await call("DELETE", "/api/organizations/current/invitations/:id", { token: owner.token, params: { id: dataOf<{ id: string }>(invited).id } })).statusCode).toBe(200)
    expect((await call("POST", "/api/organizations/invitations/accept", { token: owner.token, body: { code: "no-such-code" } })).statusCode).toBe(400)
    expect((await call("DELETE", "/api/organizations/current", { token: owner.token })).statusCode).toBe(200)
    expect((await call("GET", "/api/organizations/current", { token: owner.token })).statusCode).toBe(404)
  })

  it("the blog: a post written, refused, published with an image, read by a visitor, deleted", async () => {
    const { token } = await admin()
    const body = { title: "Reference post", slug: "reference-post", content: "## Hi\n\n[a](https://example.com)", category: "guides", tags: ["api"] }
    const created = await call("POST", "/api/admin/posts", { token, body })
    expect(created.statusCode).toBe(201)
    const { id } = dataOf<{ id: string }>(created)
    expect((await call("POST", "/api/admin/posts", { token, body })).statusCode).toBe(409)
    expect((await call("POST", "/api/admin/posts", { token, body: { ...body, slug: "Bad Slug" } })).statusCode).toBe(400)
    expect((await call("GET", "/api/admin/posts", { token, query: { status: "draft" } })).statusCode).toBe(200)
    expect((await call("GET", "/api/admin/posts/:id", { token, params: { id } })).statusCode).toBe(200)
    expect((await call("PUT", "/api/admin/posts/:id", { token, params: { id }, body: { ...body, status: "published" } })).statusCode).toBe(200)
    const form = new FormData()
    form.append("image", new Blob([new Uint8Array(await sharp({ create: { width: 40, height: 20, channels: 3, background: "#336699" } }).png().toBuffer())], { type: "image/png" }), "cover.png")
    const request = new Request("http://localhost/", { method: "PUT", body: form })
    const headers = { "content-type": request.headers.get("content-type")! }
    const payload = Buffer.from(await request.arrayBuffer())
    const uploaded = await call("PUT", "/api/admin/posts/:id/image", { token, params: { id }, headers, payload })
    expect(uploaded.statusCode).toBe(200)
    const image = await call("GET", "/api/blog/images/:name", { params: { name: dataOf<{ featuredImage: string }>(uploaded).featuredImage.split("/").pop()! } })
    expect([image.statusCode, image.headers["content-type"]]).toEqual([200, "image/webp"])
    expect((await call("GET", "/api/blog/posts", { query: { query: "reference", category: "guides" } })).statusCode).toBe(200)
    expect((await call("GET", "/api/blog/posts/:slug", { params: { slug: "reference-post" } })).statusCode).toBe(200)
    expect((await call("DELETE", "/api/admin/posts/:id", { token, params: { id } })).statusCode).toBe(200)
    expect((await call("GET", "/api/blog/posts/:slug", { params: { slug: "reference-post" } })).statusCode).toBe(404)
  })

  it("the audit log: a page, a filter refused, the CSV export", async () => {
    const { token } = await admin()
    expect((await call("GET", "/api/admin/audit", { token, query: { kind: "sessions.ended", page: "1" } })).statusCode).toBe(200)
    expect((await call("GET", "/api/admin/audit", { token, query: { from: "2026-02-30" } })).statusCode).toBe(400)
    const csv = await call("GET", "/api/admin/audit.csv", { token, query: { actor: "asker" } })
    expect([csv.statusCode, csv.body.split("\r\n")[0]]).toEqual([200, "at,actor,action,target,ip,details"])
  })

  it("checked every route it called against the document", () => {
    expect(checked.size).toBeGreaterThan(40)
  })
})

/** A word in black on white, as a PNG data URL. */
async function textImageDataUrl(word: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="55" font-family="sans-serif" font-size="40">${word}</text></svg>`
  return `data:image/png;base64,${(await sharp(Buffer.from(svg)).png().toBuffer()).toString("base64")}`
}
