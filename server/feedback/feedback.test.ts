import fs from "node:fs/promises"
import path from "node:path"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { FEEDBACK_CONFIRMATIONS_PER_ADDRESS } from "./confirmation-limit"
import { FEEDBACK_MAX_IMAGE_BYTES } from "~core/feedback"

import { makeTempDir, readOutbox, signedInUser, startTestApp, type TestApp } from "../test-kit"
import { folderStorage } from "../storage/folder-storage"
import { feedbackImagesDir, FeedbackImageStore } from "./image-store"

const PNG = await fs.readFile(new URL("../../tests/fixtures/square-64.png", import.meta.url))
/** A 1×1 GIF. */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64")
/** A JPEG's header: the signature, a JFIF segment and a frame header (2 × 2 pixels), then filler: the server reads headers only. */
function jpegDeclaring(width: number, height: number): Buffer {
  const jfif = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
  const frame = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
  return Buffer.concat([Buffer.from([0xff, 0xd8, ...jfif, ...frame]), Buffer.alloc(300, 7)])
}
const JPEG = jpegDeclaring(2, 2)
/** The PNG fixture with its IHDR rewritten to declare another size. */
function pngDeclaring(width: number, height: number): Buffer {
  const png = Buffer.from(PNG)
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  return png
}

interface Upload {
  name: string
  type: string
  bytes: Buffer
}

let subject: TestApp
let adminToken: string
let userToken: string
let ip = 0

async function multipart(fields: Record<string, string>, images: Upload[] = [], fileField = "images") {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  for (const image of images) form.append(fileField, new Blob([new Uint8Array(image.bytes)], { type: image.type }), image.name)
  const encoded = new Response(form)
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! }
}

async function submit(fields: Record<string, string>, images: Upload[] = [], target: TestApp = subject, fileField?: string) {
  const { payload, contentType } = await multipart(fields, images, fileField)
  const response = await target.app.inject({
    method: "POST",
    url: "/api/feedback",
    remoteAddress: `10.30.${Math.floor(++ip / 250)}.${ip % 250}`,
    headers: { "content-type": contentType },
    payload
  })
  return { status: response.statusCode, body: response.json() }
}

async function call(method: "GET" | "PUT" | "POST" | "DELETE", url: string, token?: string, body?: unknown) {
  const response = await subject.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body !== undefined ? { payload: body as object } : {})
  })
  return { status: response.statusCode, body: String(response.headers["content-type"]).includes("json") ? response.json() : null, response }
}

const valid = { email: "visitor@example.com", message: "The side panel does not show my images." }

/** What a refused submission must leave untouched: rows and files. */
async function storedState(target: TestApp = subject) {
  const db = target.database.db
  const count = async (table: "feedback" | "feedback_images") =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow()).n)
  const files = async (folder: string) => (await fs.readdir(path.join(target.dataDir, "uploads", folder)).catch(() => [])).sort()
  return { feedback: await count("feedback"), images: await count("feedback_images"), stored: await files("feedback"), incoming: await files("incoming") }
}

beforeAll(async () => {
  subject = await startTestApp()
  const admin = await signedInUser(subject.app)
  await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
  adminToken = admin.token
  userToken = (await signedInUser(subject.app)).token
})
afterAll(async () => subject?.close())

describe("POST /api/feedback", () => {
  it("stores the message and two images, sends the confirmation and serves the images to an admin only", async () => {
    const before = await storedState()
    const created = await submit(valid, [
      { name: "screen.png", type: "image/png", bytes: PNG },
      { name: "photo.jpg", type: "image/jpeg", bytes: JPEG }
    ])
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ email: valid.email, message: valid.message, status: "pending", replies: [] })
    expect(created.body.data.images).toHaveLength(2)
    const after = await storedState()
    expect(after.feedback).toBe(before.feedback + 1)
    expect(after.stored).toHaveLength(before.stored.length + 2)
    expect(after.incoming).toEqual([])

    await subject.app.outbox.idle()
    const mail = (await readOutbox(subject.dataDir)).at(-1)!
    expect(mail.to).toBe(valid.email)
    expect(mail.subject).toMatch(/received your feedback/)
    // Anyone may name any address: the confirmation carries none of the sender's words.
    expect(mail.text).toContain("Thank you for your feedback.")
    expect(mail.text).not.toContain(valid.message)
    expect(mail.text).not.toContain("side panel")

    const [pngUrl, jpegUrl] = created.body.data.images as string[]
    expect(pngUrl).toMatch(/^\/api\/feedback\/images\/[0-9a-f]{32}\.png$/)
    expect(jpegUrl).toMatch(/\.jpg$/)
    const image = await call("GET", pngUrl!, adminToken)
    expect(image.status).toBe(200)
    expect(image.response.headers["content-type"]).toBe("image/png")
    expect(image.response.headers["x-content-type-options"]).toBe("nosniff")
    // Opened directly, the file downloads and runs nowhere.
    expect(image.response.headers["content-disposition"]).toBe(`attachment; filename="${pngUrl!.split("/").pop()}"`)
    expect(image.response.headers["content-security-policy"]).toBe("sandbox; default-src 'none'")
    expect(image.response.rawPayload.equals(PNG)).toBe(true)
    expect((await call("GET", jpegUrl!, adminToken)).response.headers["content-type"]).toBe("image/jpeg")
    expect((await call("GET", "/api/feedback/images/..%2F..%2Fdb", adminToken)).status).toBe(404)
    expect((await call("GET", "/api/feedback/images/0123456789abcdef0123456789abcdef.png", adminToken)).status).toBe(404)
  })

  it("accepts a GIF, an image of exactly 5 MB, one of exactly 40 megapixels, and no image at all", async () => {
    const fiveMegabytes = Buffer.concat([PNG, Buffer.alloc(FEEDBACK_MAX_IMAGE_BYTES - PNG.length)])
    const created = await submit(valid, [
      { name: "anim.gif", type: "image/gif", bytes: GIF },
      { name: "big.png", type: "image/png", bytes: fiveMegabytes },
      { name: "wide.png", type: "image/png", bytes: pngDeclaring(8000, 5000) },
      { name: "tall.jpg", type: "image/jpeg", bytes: jpegDeclaring(5000, 8000) }
    ])
    expect(created.status).toBe(201)
    expect(created.body.data.images).toHaveLength(4)
    expect((await submit({ ...valid, message: "  Just text, ten+ chars  " })).body.data.message).toBe("Just text, ten+ chars")
  })

  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
  const refusals: [string, () => Promise<{ status: number; body: { success: boolean; error: { message: string } } }>, number, string][] = [
    ["a short message", () => submit({ ...valid, message: "   too short   " }), 400, "Message must be at least 10 characters long."],
    ["a missing e-mail", () => submit({ message: valid.message }, [{ name: "a.png", type: "image/png", bytes: PNG }]), 400, "Please fill in all required fields (email and message)."],
    ["a bad e-mail", () => submit({ ...valid, email: "not-an-address" }), 400, "Please enter a valid email address."],
    ["a huge message", () => submit({ ...valid, message: "x".repeat(100_000) }, [{ name: "a.png", type: "image/png", bytes: PNG }]), 400, "Message must be at most 1000 characters long."],
    ["1001 characters", () => submit({ ...valid, message: "y".repeat(1001) }), 400, "Message must be at most 1000 characters long."],
    [
      "six images",
      () => submit(valid, Array.from({ length: 6 }, (_, index) => ({ name: `${index}.png`, type: "image/png", bytes: PNG }))),
      400,
      "Maximum 5 images allowed. Please remove some images before adding more."
    ],
    [
      "5 MB + 1 byte",
      () => submit(valid, [{ name: "ok.png", type: "image/png", bytes: PNG }, { name: "huge.png", type: "image/png", bytes: Buffer.concat([PNG, Buffer.alloc(FEEDBACK_MAX_IMAGE_BYTES + 1 - PNG.length)]) }]),
      413,
      "huge.png is too large. Maximum file size is 5MB."
    ],
    [
      "a text file named .png",
      () => submit(valid, [{ name: "ok.png", type: "image/png", bytes: PNG }, { name: "notes.png", type: "image/png", bytes: Buffer.from("just some text, not a picture") }]),
      400,
      "notes.png is not a valid image file. Please select JPG, PNG, or GIF files."
    ],
    [
      "a PNG declaring more than 40 megapixels",
      () => submit(valid, [{ name: "ok.png", type: "image/png", bytes: PNG }, { name: "bomb.png", type: "image/png", bytes: pngDeclaring(8000, 5001) }]),
      400,
      "bomb.png is too large: 8000 × 5001 pixels. Maximum 40 megapixels."
    ],
    ["a JPEG declaring more than 40 megapixels", () => submit(valid, [{ name: "bomb.jpg", type: "image/jpeg", bytes: jpegDeclaring(65535, 65535) }]), 400, "bomb.jpg is too large: 65535 × 65535 pixels. Maximum 40 megapixels."],
    [
      "a GIF declaring more than 40 megapixels",
      () => submit(valid, [{ name: "bomb.gif", type: "image/gif", bytes: Buffer.concat([GIF.subarray(0, 6), Buffer.from([0xff, 0xff, 0xff, 0xff]), GIF.subarray(10)]) }]),
      400,
      "bomb.gif is too large: 65535 × 65535 pixels. Maximum 40 megapixels."
    ],
    [
      "a JPEG signature without a frame header",
      () => submit(valid, [{ name: "fake.jpg", type: "image/jpeg", bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(300, 7)]) }]),
      400,
      "fake.jpg is not a valid image file. Please select JPG, PNG, or GIF files."
    ],
    ["an SVG", () => submit(valid, [{ name: "logo.svg", type: "image/svg+xml", bytes: svg }]), 400, "logo.svg is not a valid image file. Please select JPG, PNG, or GIF files."],
    ["a tiny file", () => submit(valid, [{ name: "x.gif", type: "image/gif", bytes: Buffer.from("GIF") }]), 400, "x.gif is not a valid image file. Please select JPG, PNG, or GIF files."],
    ["another file field", () => submit(valid, [{ name: "a.png", type: "image/png", bytes: PNG }], subject, "attachment"), 400, 'Unexpected file field "attachment"; send images as "images".']
  ]

  it.each(refusals)("refuses %s in the wrapper and stores nothing", async (_what, send, status, message) => {
    const before = await storedState()
    const refused = await send()
    expect(refused.status).toBe(status)
    expect(refused.body.success).toBe(false)
    expect(refused.body.error.message).toBe(`Validation failed: ${message}`)
    expect(await storedState()).toEqual({ ...before, incoming: [] })
  })

  it("refuses JSON and empty bodies in the wrapper", async () => {
    const json = await subject.app.inject({ method: "POST", url: "/api/feedback", remoteAddress: "10.31.0.1", payload: valid })
    expect(json.statusCode).toBe(415)
    expect(json.json().success).toBe(false)
    const empty = await submit({})
    expect(empty.status).toBe(400)
    expect(empty.body.error.message).toBe("Validation failed: Please fill in all required fields (email and message).")
  })

  it("refuses a malformed multipart body in the wrapper", async () => {
    const before = await storedState()
    const response = await subject.app.inject({
      method: "POST",
      url: "/api/feedback",
      remoteAddress: "10.31.0.2",
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      payload: '--xyz\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\n\r\n\x89PNG\r\n\x1a\n-- truncated'
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ success: false, error: { code: "VALIDATION_FAILED" } })
    expect(await storedState()).toEqual({ ...before, incoming: [] })
  })

  it("limits submissions per IP under a burst: 20 at once, 10 taken", async () => {
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => subject.app.inject({ method: "POST", url: "/api/feedback", remoteAddress: "10.33.0.1", payload: valid })))).map((answer) => answer.statusCode)
    expect(statuses.filter((status) => status === 415)).toHaveLength(10)
    expect(statuses.filter((status) => status === 429)).toHaveLength(10)
  })

  it("limits submissions per IP", async () => {
    const send = () => subject.app.inject({ method: "POST", url: "/api/feedback", remoteAddress: "10.32.0.1", payload: valid })
    const statuses: number[] = []
    for (let attempt = 0; attempt < 11; attempt++) statuses.push((await send()).statusCode)
    expect(statuses.slice(0, 10).every((status) => status === 415)).toBe(true)
    expect(statuses[10]).toBe(429)
  })
})

describe("admin calls", () => {
  const someId = "00000000-0000-4000-8000-000000000000"
  const matrix: [string, "GET" | "PUT" | "POST" | "DELETE", string, unknown][] = [
    ["list", "GET", "/api/feedback", undefined],
    ["by status", "GET", "/api/feedback/status/pending", undefined],
    ["get", "GET", `/api/feedback/${someId}`, undefined],
    ["update", "PUT", `/api/feedback/${someId}`, { status: "closed" }],
    ["reply", "POST", `/api/feedback/${someId}/reply`, { message: "Thanks" }],
    ["delete", "DELETE", `/api/feedback/${someId}`, undefined],
    ["image", "GET", "/api/feedback/images/0123456789abcdef0123456789abcdef.png", undefined],
    ["overview", "GET", "/api/admin/overview", undefined],
    ["request limit", "PUT", `/api/admin/users/${someId}/request-limit`, { limit: 100 }],
    ["policy config (write)", "PUT", "/api/password-policy/config", { config: { rules: {} } }],
    ["policy rule", "PUT", "/api/password-policy/rules", { ruleName: "minLength", value: 9 }]
  ]

  it.each(matrix)("%s: 401 anonymous, 403 user, not refused for an admin", async (_name, method, url, body) => {
    const anonymous = await call(method, url, undefined, body)
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.error.code).toBe("UNAUTHORIZED")
    const user = await call(method, url, userToken, body)
    expect(user.status).toBe(403)
    expect(user.body.error.code).toBe("FORBIDDEN")
    const admin = await call(method, url, adminToken, body)
    expect([401, 403]).not.toContain(admin.status)
    expect(admin.status).toBeLessThan(500)
    expect(admin.body.success === true || admin.body.error.code === "NOT_FOUND" || admin.body.error.code === "VALIDATION_FAILED").toBe(true)
  })

  it("policy GET: anyone reads the rules, only an admin gets messages and options", async () => {
    expect(Object.keys((await call("GET", "/api/password-policy/config")).body.data)).toEqual(["config"])
    expect(Object.keys((await call("GET", "/api/password-policy/config", userToken)).body.data)).toEqual(["config"])
    expect(Object.keys((await call("GET", "/api/password-policy/config", adminToken)).body.data).sort()).toEqual(["config", "messages", "options"])
  })

  it("lists with data as the list, the total and per-status counts; filters; replies; deletes with the images", async () => {
    const created = (await submit({ email: "reply-me@example.com", message: "Please add dark mode to the side panel." }, [
      { name: "a.png", type: "image/png", bytes: PNG },
      { name: "b.gif", type: "image/gif", bytes: GIF }
    ])).body.data
    const listed = await call("GET", "/api/feedback?page=1&pageSize=2", adminToken)
    expect(listed.status).toBe(200)
    expect(Array.isArray(listed.body.data)).toBe(true)
    expect(listed.body.data).toHaveLength(2)
    expect(listed.body.data[0].id).toBe(created.id)
    const counts = listed.body.meta.counts
    expect(listed.body.meta).toMatchObject({ page: 1, pageSize: 2, total: counts.all })
    expect(counts.all).toBe(counts.pending + counts.replied + counts.closed)
    expect((await call("GET", "/api/feedback?status=bogus", adminToken)).status).toBe(400)
    expect((await call("GET", "/api/feedback/status/bogus", adminToken)).status).toBe(400)
    expect((await call("GET", "/api/feedback?pageSize=1000", adminToken)).status).toBe(400)

    expect((await call("POST", `/api/feedback/${created.id}/reply`, adminToken, { message: "   " })).body.error.details).toEqual(["message: Please enter a reply message"])
    const replied = await call("POST", `/api/feedback/${created.id}/reply`, adminToken, { message: "Dark mode is on our list." })
    expect(replied.status).toBe(200)
    expect(replied.body.data.status).toBe("replied")
    expect(replied.body.data.replies).toEqual([{ id: expect.any(String), message: "Dark mode is on our list.", adminEmail: "Admin", createdAt: expect.any(String) }])
    const second = await call("POST", `/api/feedback/${created.id}/reply`, adminToken, { message: "It shipped.", adminEmail: "ops@example.com" })
    expect(second.body.data.replies.map((reply: { adminEmail: string }) => reply.adminEmail)).toEqual(["Admin", "ops@example.com"])
    await subject.app.outbox.idle()
    const mail = (await readOutbox(subject.dataDir)).filter((message) => message.to === "reply-me@example.com")
    expect(mail.map((message) => message.subject)).toEqual([
      "We received your feedback for Image Query AI",
      "A reply to your feedback for Image Query AI",
      "A reply to your feedback for Image Query AI"
    ])
    expect(mail[1]!.text).toContain("Dark mode is on our list.")

    const byStatus = await call("GET", "/api/feedback/status/replied", adminToken)
    expect(byStatus.body.data.map((item: { id: string }) => item.id)).toContain(created.id)
    expect(byStatus.body.meta.total).toBe(byStatus.body.meta.counts.replied)
    expect((await call("GET", "/api/feedback/status/pending", adminToken)).body.data.map((item: { id: string }) => item.id)).not.toContain(created.id)

    const closed = await call("PUT", `/api/feedback/${created.id}`, adminToken, { status: "closed" })
    expect(closed.body.data.status).toBe("closed")
    expect((await call("PUT", `/api/feedback/${created.id}`, adminToken, { status: "archived" })).status).toBe(400)
    expect((await call("PUT", `/api/feedback/${created.id}`, adminToken, { status: "closed", email: "x@y.z" })).status).toBe(400)
    expect((await call("GET", `/api/feedback/${created.id}`, adminToken)).body.data).toEqual(closed.body.data)

    const files = (created.images as string[]).map((url) => path.join(subject.dataDir, "uploads", "feedback", url.split("/").pop()!))
    for (const file of files) await expect(fs.stat(file)).resolves.toBeTruthy()
    const deleted = await call("DELETE", `/api/feedback/${created.id}`, adminToken)
    expect(deleted.body.data).toEqual({ deleted: true, id: created.id })
    for (const file of files) await expect(fs.stat(file)).rejects.toThrow()
    expect((await call("GET", `/api/feedback/${created.id}`, adminToken)).status).toBe(404)
    expect((await call("GET", created.images[0], adminToken)).status).toBe(404)
    expect((await call("DELETE", `/api/feedback/${created.id}`, adminToken)).status).toBe(404)
    expect((await call("GET", "/api/feedback/not-a-uuid", adminToken)).status).toBe(404)
  })

  it("overview reports real figures", async () => {
    const overview = (await call("GET", "/api/admin/overview", adminToken)).body.data
    const db = subject.database.db
    const users = await db.selectFrom("users").select(["role"]).execute()
    expect(overview.users.total).toBe(users.length)
    expect(overview.users.admins).toBe(users.filter((user) => user.role === "admin").length)
    expect(overview.policies.enabledRules).toBe(11)
    const feedbackRows = await db.selectFrom("feedback").select("status").execute()
    expect(overview.feedback.all).toBe(feedbackRows.length)
    expect(overview.health).toMatchObject({ percent: 100, checks: { database: { ok: true }, uploads: { ok: true } } })

    await call("PUT", "/api/password-policy/rules", adminToken, { ruleName: "requireSpecialChars", enabled: false })
    await db.insertInto("policy_violations").values({ user_id: null, action: "register", codes: JSON.stringify(["PASSWORD_TOO_SHORT"]), created_at: new Date() }).execute()
    const later = (await call("GET", "/api/admin/overview", adminToken)).body.data
    expect(later.policies.enabledRules).toBe(10)
    expect(later.violations.last30Days).toBe(overview.violations.last30Days + 1)
    await call("PUT", "/api/password-policy/rules", adminToken, { ruleName: "requireSpecialChars", enabled: true })
  })

  it("sets an Enterprise account's monthly request limit, which the usage call then reports", async () => {
    const customer = await signedInUser(subject.app, "enterprise")
    const usage = async () => (await call("GET", "/api/analyze/usage", customer.token)).body.data.limit
    expect(await usage()).toBeNull()
    const set = await call("PUT", `/api/admin/users/${customer.id}/request-limit`, adminToken, { limit: 250 })
    expect(set.body.data).toMatchObject({ id: customer.id, plan: "enterprise", requestLimit: 250, appliesToPlan: true })
    expect(await usage()).toBe(250)
    expect((await call("PUT", `/api/admin/users/${customer.id}/request-limit`, adminToken, { limit: null })).body.data.requestLimit).toBeNull()
    expect(await usage()).toBeNull()
    for (const limit of [0, -5, 1.5, "10", undefined]) {
      const refused = await call("PUT", `/api/admin/users/${customer.id}/request-limit`, adminToken, { limit })
      expect(refused.status).toBe(400)
      expect(refused.body.error.code).toBe("VALIDATION_FAILED")
    }
    expect((await call("PUT", `/api/admin/users/${customer.id}/request-limit`, adminToken, { limit: 5, plan: "pro" })).status).toBe(400)
    expect(await usage()).toBeNull()
    expect((await call("PUT", "/api/admin/users/00000000-0000-4000-8000-000000000000/request-limit", adminToken, { limit: 5 })).status).toBe(404)
    expect((await call("PUT", "/api/admin/users/nobody/request-limit", adminToken, { limit: 5 })).status).toBe(404)
  })
})

describe("feature flags", () => {
  it("without fileUploads images are refused, without emailNotifications no e-mail is sent", async () => {
    const off = await startTestApp({}, { feedbackFlags: { fileUploads: false, emailNotifications: false } })
    try {
      const before = await storedState(off)
      const refused = await submit(valid, [{ name: "a.png", type: "image/png", bytes: PNG }], off)
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toBe("Validation failed: Image uploads are turned off.")
      expect(await storedState(off)).toEqual(before)
      const created = await submit(valid, [], off)
      expect(created.status).toBe(201)

      const admin = await signedInUser(off.app)
      await off.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
      const reply = await off.app.inject({
        method: "POST",
        url: `/api/feedback/${created.body.data.id}/reply`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: { message: "Thanks!" }
      })
      expect(reply.json().data.status).toBe("replied")
      await off.app.outbox.idle()
      expect(await readOutbox(off.dataDir)).toEqual([])
    } finally {
      await off.close()
    }
  })
})

describe("confirmation e-mails", () => {
  it("go at most 3 times per address an hour, even to 20 submissions at once; every submission is still stored", async () => {
    const address = "burst-target@example.com"
    const before = await storedState()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => submit({ email: index % 2 ? address : address.toUpperCase(), message: `Spam attempt number ${index}.` }))
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201))
    expect((await storedState()).feedback).toBe(before.feedback + 20)
    await subject.app.outbox.idle()
    const sent = (await readOutbox(subject.dataDir)).filter((mail) => mail.to.toLowerCase() === address)
    expect(sent).toHaveLength(FEEDBACK_CONFIRMATIONS_PER_ADDRESS)
  })

  it("go at most the server's hourly number in all, and again once the hour has passed", async () => {
    let now = Date.parse("2026-03-01T10:00:00Z")
    const logLines: string[] = []
    const limited = await startTestApp(
      { LOG_LEVEL: "info" },
      { clock: () => now, feedbackLimits: { confirmationsPerServer: 5 }, logStream: { write: (line: string) => void logLines.push(line) } }
    )
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => submit({ email: `reader${index}@example.com`, message: `Feedback number ${index} here.` }, [], limited))
      )
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201))
      await limited.app.outbox.idle()
      expect(await readOutbox(limited.dataDir)).toHaveLength(5)
      expect((await storedState(limited)).feedback).toBe(20)
      const skipped = logLines.filter((line) => line.includes("feedback confirmation not sent"))
      expect(skipped).toHaveLength(15)
      // At info level the skipped recipients are not named.
      expect(logLines.join("")).not.toMatch(/reader\d+@example\.com/)

      now += 60 * 60_000
      expect((await submit({ email: "later@example.com", message: "An hour later, one more." }, [], limited)).status).toBe(201)
      await limited.app.outbox.idle()
      expect((await readOutbox(limited.dataDir)).map((mail) => mail.to)).toContain("later@example.com")
    } finally {
      await limited.close()
    }
  })
})

describe("the disk budget of uploads", () => {
  it("never lets 20 parallel uploads pass it: the rest get 507 in the wrapper and leave nothing; deleting makes room", async () => {
    const budget = 5 * PNG.length
    const small = await startTestApp({}, { feedbackLimits: { diskBudgetBytes: budget } })
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => submit({ email: `disk${index}@example.com`, message: `Upload number ${index} with an image.` }, [{ name: `${index}.png`, type: "image/png", bytes: PNG }], small))
      )
      const accepted = answers.filter((answer) => answer.status === 201)
      expect(accepted).toHaveLength(5)
      for (const refused of answers.filter((answer) => answer.status !== 201)) {
        expect(refused.status).toBe(507)
        expect(refused.body).toEqual({
          success: false,
          error: { code: "INSUFFICIENT_STORAGE", message: "The server has no room for more images right now. Please send your feedback without images, or try again later." }
        })
      }
      const state = await storedState(small)
      expect(state).toMatchObject({ feedback: 5, images: 5, incoming: [] })
      expect(state.stored).toHaveLength(5)

      // Feedback without images still arrives.
      expect((await submit(valid, [], small)).status).toBe(201)
      expect((await submit(valid, [{ name: "more.png", type: "image/png", bytes: PNG }], small)).status).toBe(507)

      const admin = await signedInUser(small.app)
      await small.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
      const removed = await small.app.inject({ method: "DELETE", url: `/api/feedback/${accepted[0]!.body.data.id}`, headers: { authorization: `Bearer ${admin.token}` } })
      expect(removed.statusCode).toBe(200)
      expect((await submit(valid, [{ name: "again.png", type: "image/png", bytes: PNG }], small)).status).toBe(201)
    } finally {
      await small.close()
    }
  })

  it("counts the images already on disk when it starts", async () => {
    const dataDir = await makeTempDir()
    try {
      const storage = folderStorage(feedbackImagesDir(dataDir))
      const first = new FeedbackImageStore(dataDir, storage, 3 * PNG.length)
      await first.prepare(async () => new Set())
      const kept = "0123456789abcdef0123456789abcdef.png"
      const orphan = "fedcba9876543210fedcba9876543210.png"
      await fs.writeFile(path.join(feedbackImagesDir(dataDir), kept), Buffer.concat([PNG, PNG]))
      await fs.writeFile(path.join(feedbackImagesDir(dataDir), orphan), PNG)
      const restarted = new FeedbackImageStore(dataDir, storage, 3 * PNG.length)
      await restarted.prepare(async () => new Set([kept]))
      expect(restarted.used).toBe(2 * PNG.length)
      // The folder is this instance's alone: a file no feedback names is what a crash left, and goes at once.
      expect((await storage.list()).map((object) => object.name)).toEqual([kept])
      const staged = { tempPath: "", contentType: "image/png" as const, byteSize: 0, originalName: "a.png", reservedBytes: 0 }
      expect(restarted.reserve(staged, PNG.length + 1)).toBe(false)
      expect(restarted.reserve(staged, PNG.length)).toBe(true)
      expect(restarted.used).toBe(3 * PNG.length)
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  })
})
