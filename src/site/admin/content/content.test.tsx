/**
 * /admin/content through the whole app with a fake API, signed in as an admin: the posts with their status, a new
 * post (slug suggested from the title, live preview rendering Markdown safely, plain-word errors), saving and
 * publishing, a taken slug, the featured image, deleting after a confirmation.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"

import type { Post, PostInput } from "~core/admin/blog"
import { renderMarkdown } from "~core/markdown"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { teardownSession } from "~site-session/session-store"

import { makePost, summaryOf } from "../../blog/blog-test-kit"
import { answer, createFakeApi, refuse, resetSiteForTest } from "../../fake-api-server"
import { SiteApp } from "../../SiteApp"

afterEach(() => teardownSession())

const ADMIN: User = { name: "Grace Hopper", email: "grace@example.com", role: "admin", provider: "email" }
const NEW_ID = "00000000-0000-4000-8000-0000000000aa"

function openContent(path = "/admin/content") {
  const posts: Post[] = [
    makePost({ title: "A published post", slug: "a-published-post", updatedAt: "2026-11-02T10:00:00.000Z" }),
    makePost({ title: "A draft", slug: "a-draft", status: "draft", publishedAt: null, updatedAt: "2026-11-20T10:00:00.000Z" })
  ]
  const fromInput = (input: PostInput, base: Post): Post => ({
    ...base,
    ...input,
    tags: input.tags ?? [],
    excerpt: input.excerpt ?? "",
    content: input.content ?? "",
    html: renderMarkdown(input.content ?? ""),
    status: input.status ?? "draft",
    seo: { title: input.seo?.title ?? "", description: input.seo?.description ?? "" },
    author: { name: input.author?.name ?? "", role: input.author?.role ?? "", bio: input.author?.bio ?? "" }
  })
  const server = createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: { ...ADMIN, id: "admin-1", emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z" } })],
    ["GET /api/admin/posts", () => answer({ posts: posts.map(summaryOf), total: posts.length, page: 1, pageSize: 50 })],
    [
      "POST /api/admin/posts",
      (request) => {
        const input = request.body as PostInput
        if (posts.some((post) => post.slug === input.slug)) return refuse(409, "SLUG_TAKEN", `Another post already uses the address /blog/${input.slug}: choose another slug.`)
        const created = fromInput(input, makePost({ id: NEW_ID }))
        posts.unshift(created)
        return answer(created, 201)
      }
    ]
  ])
  const routesFor = (post: Post) => {
    server.on(`GET /api/admin/posts/${post.id}`, () => answer(posts.find((item) => item.id === post.id)))
    server.on(`PUT /api/admin/posts/${post.id}`, (request) => {
      const input = request.body as PostInput
      if (posts.some((other) => other.slug === input.slug && other.id !== post.id)) return refuse(409, "SLUG_TAKEN", `Another post already uses the address /blog/${input.slug}: choose another slug.`)
      const index = posts.findIndex((item) => item.id === post.id)
      posts[index] = fromInput(input, posts[index]!)
      return answer(posts[index])
    })
    server.on(`DELETE /api/admin/posts/${post.id}`, () => {
      posts.splice(
        posts.findIndex((item) => item.id === post.id),
        1
      )
      return answer({ deleted: true })
    })
    server.on(`PUT /api/admin/posts/${post.id}/image`, () => {
      const index = posts.findIndex((item) => item.id === post.id)
      posts[index] = { ...posts[index]!, featuredImage: `http://api.test/api/blog/images/${post.id}-0123456789abcdef.webp` }
      return answer(posts[index])
    })
  }
  for (const post of posts) routesFor(post)
  routesFor(makePost({ id: NEW_ID }))
  resetSiteForTest(server.fetch)
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(ADMIN))
  render(<SiteApp router="memory" initialPath={path} />)
  return { server, posts }
}

const preview = () => screen.getByTestId("markdown-preview")

describe("the admin's posts", () => {
  it("lists the posts with their status and last edit, and opens the editor", async () => {
    openContent()
    const table = await screen.findByRole("table", { name: "Posts, the latest edited first" })
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent))
    expect(rows).toEqual([
      ["A published post/blog/a-published-post", "Published", "Guides", "2 November 2026"],
      ["A draft/blog/a-draft", "Draft", "Guides", "20 November 2026"]
    ])
    fireEvent.click(screen.getByRole("link", { name: "New post" }))
    expect(await screen.findByRole("heading", { level: 1, name: "New post" })).toBeTruthy()
  })

  it("writes a new post: slug from the title, a safe live preview, plain-word errors, then created", async () => {
    const { server } = openContent("/admin/content/new")
    await screen.findByRole("heading", { level: 1, name: "New post" })
    fireEvent.click(screen.getByRole("button", { name: "Create post" }))
    expect(await screen.findByText("Give the post a title")).toBeTruthy()
    expect(server.calls("POST /api/admin/posts")).toHaveLength(0)

    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Déjà vu: Images & You!" } })
    expect((screen.getByLabelText("Slug") as HTMLInputElement).value).toBe("deja-vu-images-you")
    fireEvent.change(screen.getByLabelText("Text (Markdown)"), { target: { value: "## Hello\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(1)) [good](https://example.com)" } })
    await waitFor(() => expect(within(preview()).getByRole("heading", { level: 2, name: "Hello" })).toBeTruthy())
    expect(preview().querySelector("script")).toBeNull()
    expect(within(preview()).getByText("<script>alert(1)</script>")).toBeTruthy()
    expect(within(preview()).getAllByRole("link").map((link) => [link.textContent, link.getAttribute("href"), link.getAttribute("rel")])).toEqual([["good", "https://example.com", "noopener nofollow"]])

    fireEvent.change(screen.getByLabelText("Tags"), { target: { value: "Travel, memory,, travel" } })
    fireEvent.change(screen.getByLabelText("Category"), { target: { value: "guides" } })
    fireEvent.click(screen.getByRole("button", { name: "Create post" }))
    expect(await screen.findByText("Created as a draft.")).toBeTruthy()
    expect(screen.getByRole("heading", { level: 1, name: "Edit post" })).toBeTruthy()
    expect(server.calls("POST /api/admin/posts")[0]!.body).toMatchObject({ title: "Déjà vu: Images & You!", slug: "deja-vu-images-you", category: "guides", tags: ["Travel", "memory", "travel"], status: "draft" })
    // A saved post's slug no longer follows its title.
    fireEvent.change(screen.getByLabelText("Title"), { target: { value: "Another title" } })
    expect((screen.getByLabelText("Slug") as HTMLInputElement).value).toBe("deja-vu-images-you")
  })

  it("publishes a draft, and puts a taken slug's refusal on the slug field", async () => {
    const { server, posts } = openContent()
    await screen.findByRole("table")
    fireEvent.click(screen.getByRole("link", { name: "A draft" }))
    await screen.findByRole("heading", { level: 1, name: "Edit post" })
    fireEvent.change(screen.getByLabelText("Slug"), { target: { value: "a-published-post" } })
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }))
    const slug = screen.getByLabelText("Slug")
    await waitFor(() => expect(slug.getAttribute("aria-invalid")).toBe("true"))
    expect(screen.getByText("Another post already uses the address /blog/a-published-post: choose another slug.")).toBeTruthy()

    fireEvent.change(slug, { target: { value: "a-draft" } })
    fireEvent.change(screen.getByLabelText("Status"), { target: { value: "published" } })
    fireEvent.change(screen.getByLabelText("SEO title"), { target: { value: "Read this" } })
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }))
    expect(await screen.findByText("Saved and published.")).toBeTruthy()
    const draftId = posts.find((post) => post.slug === "a-draft")!.id
    expect(server.calls(`PUT /api/admin/posts/${draftId}`).at(-1)!.body).toMatchObject({ status: "published", seo: { title: "Read this", description: "" } })
    expect(screen.getByRole("link", { name: "/blog/a-draft" }).getAttribute("href")).toBe("/blog/a-draft")
  })

  it("uploads a featured image, refusing a wrong type or a large file before sending", async () => {
    const { server, posts } = openContent()
    await screen.findByRole("table")
    fireEvent.click(screen.getByRole("link", { name: "A published post" }))
    const picker = await screen.findByLabelText("Upload a picture (PNG, JPEG or WebP, at most 5 MB)")
    const route = `PUT /api/admin/posts/${posts[0]!.id}/image`
    fireEvent.change(picker, { target: { files: [new File(["gif"], "a.gif", { type: "image/gif" })] } })
    expect(await screen.findByText("Choose a PNG, JPEG or WebP picture.")).toBeTruthy()
    fireEvent.change(picker, { target: { files: [new File([new Uint8Array(5 * 1024 * 1024 + 1)], "big.png", { type: "image/png" })] } })
    expect(await screen.findByText("The picture is larger than 5 MB: choose a smaller one.")).toBeTruthy()
    expect(server.calls(route)).toHaveLength(0)
    fireEvent.change(picker, { target: { files: [new File(["png"], "a.png", { type: "image/png" })] } })
    expect(await screen.findByText("The uploaded picture.")).toBeTruthy()
    expect((server.calls(route)[0]!.body as FormData).get("image")).toBeInstanceOf(File)
  })

  it("deletes a post after a confirmation, and keeps it when the admin changes their mind", async () => {
    const { server, posts } = openContent()
    await screen.findByRole("table")
    const id = posts[1]!.id
    fireEvent.click(screen.getByRole("link", { name: "A draft" }))
    fireEvent.click(await screen.findByRole("button", { name: "Delete post" }))
    const dialog = await screen.findByRole("alertdialog")
    fireEvent.click(within(dialog).getByRole("button", { name: "Keep the post" }))
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull())
    expect(server.calls(`DELETE /api/admin/posts/${id}`)).toHaveLength(0)
    fireEvent.click(screen.getByRole("button", { name: "Delete post" }))
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete post" }))
    expect(await screen.findByRole("heading", { level: 1, name: "Content" })).toBeTruthy()
    expect(server.calls(`DELETE /api/admin/posts/${id}`)).toHaveLength(1)
    await waitFor(() => expect(screen.queryByRole("link", { name: "A draft" })).toBeNull())
  }, 15_000)
})
