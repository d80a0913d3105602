/**
 * The blog through the API: the seed posts published; an admin's post from draft to published to deleted, each
 * change in the audit log; drafts invisible to visitors; search, categories and pages; one winner among 20 saves of
 * one slug at once; the featured image checked by its bytes; Markdown with script or raw HTML rendered inert.
 */
import { sql } from "kysely"
import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { Post, PostInput, PostList, PublicPost } from "~core/admin/blog"

import { signedInUser, startTestApp, type TestApp } from "../test-kit"

let subject: TestApp
let admin: { id: string; token: string }
let time = Date.parse("2026-12-01T10:00:00Z")

beforeAll(async () => {
  subject = await startTestApp({}, { clock: () => time })
  admin = await signedInUser(subject.app)
  await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
})
afterAll(async () => subject?.close())

async function call(method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: unknown, token: string | null = admin.token) {
  const response = await subject.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body === undefined ? {} : { payload: body as object })
  })
  return { status: response.statusCode, body: response.json() }
}

let counter = 0
const draft = (overrides: Partial<PostInput> = {}): PostInput => ({
  title: `A post ${++counter}`,
  slug: `a-post-${counter}-${Math.random().toString(36).slice(2, 8)}`,
  excerpt: "What it is about.",
  content: "## Hello\n\nSome text.",
  category: "guides",
  tags: ["testing"],
  ...overrides
})

async function create(input: PostInput): Promise<Post> {
  const created = await call("POST", "/api/admin/posts", input)
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body.data as Post
}

const publicList = async (query = "") => (await call("GET", `/api/blog/posts${query}`, undefined, null)).body.data as PostList
const auditRows = (postId: string) =>
  subject.database.db.selectFrom("audit_events").select(["kind", "actor_id", "target", "detail"]).where(sql<string>`detail->>'postId'`, "=", postId).orderBy("created_at").orderBy("id").execute()

describe("the blog", () => {
  it("starts with the seed posts, published, rendered, each with related posts", async () => {
    const list = await publicList()
    expect(list.total).toBeGreaterThanOrEqual(7)
    const seed = await call("GET", "/api/blog/posts/how-ocr-works", undefined, null)
    expect(seed.status).toBe(200)
    const post = seed.body.data as PublicPost
    expect(post).toMatchObject({ title: "How on-device text extraction works", category: "behind-the-scenes", status: "published", publishedAt: "2026-09-16T09:00:00.000Z", updatedAt: "2026-10-01T09:00:00.000Z" })
    expect(post.author.name).toBe("Sofia Alvarez")
    expect(post.html).toContain("<h2>The engine ships with the extension</h2>")
    expect(post.html).toContain("<li>Screenshots and slides give the best results: sharp, high-contrast text.</li>")
    expect(post.related.length).toBeGreaterThan(0)
    for (const other of post.related) {
      expect(other.id).not.toBe(post.id)
      expect(other.category === post.category || other.tags.some((tag) => post.tags.includes(tag))).toBe(true)
    }
  })

  it("keeps a draft from visitors, publishes it once, and keeps updatedAt at each edit, all audited", async () => {
    const input = draft({ title: "Secret plans", tags: ["Roadmap", "roadmap"] })
    const created = await create(input)
    expect(created).toMatchObject({ status: "draft", publishedAt: null, tags: ["roadmap"], updatedAt: new Date(time).toISOString(), seo: { title: "", description: "" } })
    expect((await call("GET", `/api/blog/posts/${input.slug}`, undefined, null)).status).toBe(404)
    expect((await publicList("?query=secret")).posts).toEqual([])
    expect(((await call("GET", "/api/admin/posts?status=draft")).body.data as PostList).posts.map((post) => post.id)).toContain(created.id)

    time += 60_000
    const published = (await call("PUT", `/api/admin/posts/${created.id}`, { ...input, status: "published", seo: { title: "Plans", description: "Ours" } })).body.data as Post
    expect(published).toMatchObject({ status: "published", publishedAt: new Date(time).toISOString(), updatedAt: new Date(time).toISOString(), seo: { title: "Plans", description: "Ours" } })
    const visible = await call("GET", `/api/blog/posts/${input.slug}`, undefined, null)
    expect([visible.status, visible.body.data.id]).toEqual([200, created.id])

    time += 60_000
    const edited = (await call("PUT", `/api/admin/posts/${created.id}`, { ...input, title: "Open plans", status: "published" })).body.data as Post
    expect(edited).toMatchObject({ title: "Open plans", publishedAt: published.publishedAt, updatedAt: new Date(time).toISOString(), createdAt: created.createdAt })
    expect((await call("GET", `/api/admin/posts/${created.id}`)).body.data).toEqual(edited)

    // Back to draft: hidden again, and its first publication date kept for when it returns.
    time += 60_000
    const hidden = (await call("PUT", `/api/admin/posts/${created.id}`, { ...input, status: "draft" })).body.data as Post
    expect(hidden.publishedAt).toBe(published.publishedAt)
    expect((await call("GET", `/api/blog/posts/${input.slug}`, undefined, null)).status).toBe(404)

    expect((await call("DELETE", `/api/admin/posts/${created.id}`)).body).toEqual({ success: true, data: { deleted: true } })
    expect((await call("GET", `/api/admin/posts/${created.id}`)).status).toBe(404)
    expect((await call("DELETE", `/api/admin/posts/${created.id}`)).status).toBe(404)

    const rows = await auditRows(created.id)
    expect(rows.map((row) => row.kind)).toEqual(["admin.post_created", "admin.post_updated", "admin.post_published", "admin.post_updated", "admin.post_updated", "admin.post_deleted"])
    for (const row of rows) expect(row).toMatchObject({ actor_id: admin.id, target: `post /blog/${input.slug}` })
  })

  it("refuses bad input in the wrapper", async () => {
    const post = await create(draft())
    const refusals = [
      await call("POST", "/api/admin/posts", draft({ slug: "Not A Slug" })),
      await call("POST", "/api/admin/posts", draft({ slug: "trailing-" })),
      await call("POST", "/api/admin/posts", draft({ title: " " })),
      await call("POST", "/api/admin/posts", { ...draft(), category: "gossip" }),
      await call("POST", "/api/admin/posts", { ...draft(), status: "scheduled" }),
      await call("POST", "/api/admin/posts", { ...draft(), extra: true }),
      await call("POST", "/api/admin/posts", draft({ tags: Array.from({ length: 11 }, (_, index) => `t${index}`) })),
      await call("PUT", "/api/admin/posts/not-an-id", draft()),
      await call("PUT", `/api/admin/posts/${post.id}`, { title: "Only a title" }),
      await call("GET", "/api/blog/posts?page=0", undefined, null),
      await call("GET", "/api/blog/posts?page=abc", undefined, null),
      await call("GET", "/api/blog/posts?category=gossip", undefined, null)
    ]
    for (const refusal of refusals) expect([refusal.status, refusal.body.error.code]).toEqual([400, "VALIDATION_FAILED"])
    expect((await call("PUT", "/api/admin/posts/00000000-0000-4000-8000-000000000000", draft())).status).toBe(404)
  })

  it("searches the title, excerpt, text and tags, filters by category and pages", async () => {
    const word = `zebra${Math.random().toString(36).slice(2, 8)}`
    await create(draft({ title: `The ${word} title`, status: "published" }))
    await create(draft({ excerpt: `About ${word.toUpperCase()}`, status: "published", category: "privacy-security" }))
    await create(draft({ content: `Text with ${word} inside.`, status: "published" }))
    await create(draft({ tags: [word], status: "published" }))
    await create(draft({ title: `Draft ${word}` }))
    expect((await publicList(`?query=${word}`)).total).toBe(4)
    expect((await publicList(`?query=${word}&category=privacy-security`)).posts.map((post) => post.excerpt)).toEqual([`About ${word.toUpperCase()}`])
    // LIKE's wildcards are searched as themselves.
    expect((await publicList(`?query=${encodeURIComponent("%_")}`)).total).toBe(0)
    expect(((await call("GET", `/api/admin/posts?query=${word}`)).body.data as PostList).total).toBe(5)

    for (let index = 0; index < 10; index++) {
      time += 1000
      await create(draft({ category: "product-updates", status: "published", tags: [`${word}-page`] }))
    }
    const first = await publicList(`?query=${word}-page`)
    const second = await publicList(`?query=${word}-page&page=2`)
    expect([first.total, first.page, first.pageSize, first.posts.length, second.posts.length]).toEqual([10, 1, 6, 6, 4])
    const dates = [...first.posts, ...second.posts].map((post) => post.publishedAt!)
    expect(dates).toEqual([...dates].sort().reverse())
    expect(first.posts[0]).not.toHaveProperty("content")
  })

  it("lets exactly one of 20 saves of one slug win, and refuses a taken slug on an edit", async () => {
    const slug = `burst-${Math.random().toString(36).slice(2, 8)}`
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/admin/posts", draft({ slug }))))
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1)
    const refused = answers.filter((answer) => answer.status !== 201)
    expect(refused.map((answer) => [answer.status, answer.body.error.code])).toEqual(Array.from({ length: 19 }, () => [409, "SLUG_TAKEN"]))
    const other = await create(draft())
    const clash = await call("PUT", `/api/admin/posts/${other.id}`, draft({ slug }))
    expect([clash.status, clash.body.error.code]).toEqual([409, "SLUG_TAKEN"])
    const rows = await subject.database.db.selectFrom("blog_posts").select("id").where("slug", "=", slug).execute()
    expect(rows).toHaveLength(1)
  })

  it("renders Markdown with script, raw HTML and javascript: links inert", async () => {
    const content = [
      "<script>alert(1)</script>",
      '<img src=x onerror="alert(1)">',
      "[click](javascript:alert(1))",
      "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
      "[fine](https://example.com)"
    ].join("\n\n")
    const post = await create(draft({ content, status: "published" }))
    const served = (await call("GET", `/api/blog/posts/${post.slug}`, undefined, null)).body.data as PublicPost
    // No element but text ones, no event attribute inside a tag, no script or data URL (the escaped text holds them as text).
    expect(served.html).not.toMatch(/<(script|img|svg|iframe)\b|<[^>]*\son\w+=|href="javascript|src="data/i)
    expect(served.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(served.html).toContain('<a href="https://example.com" rel="noopener nofollow">fine</a>')
    expect(served.content).toBe(content)
  })
})

describe("a post's featured image", () => {
  async function upload(postId: string, bytes: Buffer, type: string, field = "image") {
    const form = new FormData()
    form.append(field, new Blob([new Uint8Array(bytes)], { type }), "picture")
    const request = new Request("http://localhost/", { method: "PUT", body: form })
    const response = await subject.app.inject({
      method: "PUT",
      url: `/api/admin/posts/${postId}/image`,
      headers: { authorization: `Bearer ${admin.token}`, "content-type": request.headers.get("content-type")! },
      payload: Buffer.from(await request.arrayBuffer())
    })
    return { status: response.statusCode, body: response.json() }
  }

  it("takes a picture checked by its bytes, re-encodes it and serves it to anyone for a year", async () => {
    const post = await create(draft({ status: "published" }))
    const picture = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: "#2040c0" } }).jpeg().toBuffer()
    const notAPicture = await upload(post.id, Buffer.from("<svg onload=alert(1)>"), "image/png")
    expect([notAPicture.status, notAPicture.body.error.code]).toEqual([415, "INVALID_IMAGE"])
    const tooLarge = await upload(post.id, Buffer.concat([picture, Buffer.alloc(5 * 1024 * 1024)]), "image/jpeg")
    expect([tooLarge.status, tooLarge.body.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"])
    expect((await upload(post.id, picture, "image/jpeg", "logo")).status).toBe(400)
    expect((await upload("00000000-0000-4000-8000-000000000000", picture, "image/jpeg")).status).toBe(404)

    const first = await upload(post.id, picture, "image/jpeg")
    expect(first.status).toBe(200)
    const firstUrl = (first.body.data as Post).featuredImage!
    const served = await subject.app.inject({ method: "GET", url: new URL(firstUrl).pathname })
    expect([served.statusCode, served.headers["content-type"], served.headers["cache-control"]]).toEqual([200, "image/webp", "public, max-age=31536000, immutable"])
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: "webp", width: 1600, height: 800 })
    expect(((await call("GET", `/api/blog/posts/${post.slug}`, undefined, null)).body.data as PublicPost).featuredImage).toBe(firstUrl)

    // A new upload has a new address; the former image is removed, and with the post the latest goes too.
    const second = (await upload(post.id, picture, "image/jpeg")).body.data as Post
    expect(second.featuredImage).not.toBe(firstUrl)
    expect((await subject.app.inject({ method: "GET", url: new URL(firstUrl).pathname })).statusCode).toBe(404)
    await call("DELETE", `/api/admin/posts/${post.id}`)
    expect((await subject.app.inject({ method: "GET", url: new URL(second.featuredImage!).pathname })).statusCode).toBe(404)
    expect((await subject.app.inject({ method: "GET", url: "/api/blog/images/..%2F..%2Fetc%2Fpasswd" })).statusCode).toBe(404)
  })
})
