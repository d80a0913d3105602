// POST /api/feedback (what is stored, mailed and served, what is refused, the per-IP limits), then the admin calls on
// what was sent: who may make them, the inbox (list, filter, reply, close, delete), the overview, request limits. One
// file, in this order: the inbox test lists two items a page, the first its own, the second one sent before it.
import fs from "node:fs/promises"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { FEEDBACK_MAX_IMAGE_BYTES } from "~core/admin/feedback"

import { readOutbox, signedInUser } from "../test-kit"
import { adminToken, call, GIF, JPEG, jpegDeclaring, PNG, pngDeclaring, setUpFeedbackApp, storedState, subject, submit, userToken, valid } from "./feedback-test-kit"

setUpFeedbackApp()

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
    expect(pngUrl).toMatch(/^\/api\/feedback-images\/[0-9a-f]{32}\.png$/)
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
    expect((await call("GET", "/api/feedback-images/..%2F..%2Fdb", adminToken)).status).toBe(404)
    expect((await call("GET", "/api/feedback-images/0123456789abcdef0123456789abcdef.png", adminToken)).status).toBe(404)
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
    ["image", "GET", "/api/feedback-images/0123456789abcdef0123456789abcdef.png", undefined],
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
