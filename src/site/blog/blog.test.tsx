/**
 * The public blog through the whole app with a fake API: the list (featured post, pages, search, categories) and the
 * post page (the server's HTML, author, tags, related posts, SEO title and description) read published posts from
 * /api/blog; a missing post and a failing server are said in words.
 */
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"

import { teardownSession } from "~site-session/session-store"

import { createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"
import { makePost, publicBlogRoutes } from "./blog-test-kit"

afterEach(() => teardownSession())

const OCR = makePost({
  slug: "how-ocr-works",
  title: "How on-device text extraction works",
  category: "behind-the-scenes",
  tags: ["ocr", "on-device", "performance"],
  content: "Intro.\n\n## The engine ships with the extension\n\n- sharp text\n- [more](https://example.com)\n\n<script>alert(1)</script>",
  author: { name: "Sofia Alvarez", role: "Machine learning", bio: "Sofia tunes the models." },
  seo: { title: "How on-device OCR works in Image Query AI", description: "A look inside Image Query AI's text extraction." },
  publishedAt: "2026-09-16T09:00:00.000Z",
  updatedAt: "2026-10-01T09:00:00.000Z"
})
const PRIVACY = makePost({ title: "Why most of your image analysis never leaves your browser", category: "privacy-security", tags: ["on-device"], publishedAt: "2026-09-30T09:00:00.000Z" })
const DRAFT = makePost({ title: "An unfinished draft", status: "draft", publishedAt: null })
const NEWEST = makePost({ title: "Introducing Image Query AI", category: "product-updates", tags: ["launch"], publishedAt: "2026-11-30T09:00:00.000Z" })
const MORE = Array.from({ length: 10 }, (_, index) => makePost({ category: "guides", publishedAt: `2026-07-${String(index + 1).padStart(2, "0")}T09:00:00.000Z` }))

function openBlog(path = "/blog") {
  const server = createFakeApi(publicBlogRoutes([OCR, PRIVACY, DRAFT, NEWEST, ...MORE]))
  resetSiteForTest(server.fetch)
  render(<SiteApp router="memory" initialPath={path} />)
  return server
}

const listedTitles = () =>
  within(screen.getByRole("region", { name: "Posts" }))
    .queryAllByRole("heading", { level: 2 })
    .map((heading) => heading.textContent)

describe("the blog list", () => {
  it("shows the newest post apart, a page of the others, and the next page on Load more", async () => {
    openBlog()
    const featured = await screen.findByRole("region", { name: "Featured post" })
    expect(within(featured).getByRole("heading").textContent).toBe("Introducing Image Query AI")
    expect(listedTitles()).toHaveLength(5)
    expect(listedTitles()).toContain("How on-device text extraction works")
    expect(listedTitles()).not.toContain("An unfinished draft")
    fireEvent.click(screen.getByRole("button", { name: "Load more" }))
    await waitFor(() => expect(listedTitles()).toHaveLength(11))
    fireEvent.click(screen.getByRole("button", { name: "Load more" }))
    await waitFor(() => expect(listedTitles()).toHaveLength(12))
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull()
  })

  it("filters by category chip and by search on the server", async () => {
    const server = openBlog()
    await screen.findByRole("region", { name: "Featured post" })
    fireEvent.click(screen.getByRole("button", { name: "Privacy & security" }))
    await waitFor(() => expect(listedTitles()).toEqual(["Why most of your image analysis never leaves your browser"]))
    expect(screen.queryByRole("region", { name: "Featured post" })).toBeNull()
    expect(server.calls("GET /api/blog/posts").at(-1)!.query).toBe("?category=privacy-security")
    fireEvent.click(screen.getByRole("button", { name: "All" }))
    fireEvent.change(screen.getByLabelText("Search posts"), { target: { value: "engine ships" } })
    await waitFor(() => expect(listedTitles()).toEqual(["How on-device text extraction works"]))
    fireEvent.change(screen.getByLabelText("Search posts"), { target: { value: "quantum" } })
    expect(await screen.findByRole("heading", { name: "No posts found" })).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }))
    expect(await screen.findByRole("region", { name: "Featured post" })).toBeTruthy()
  })

  it("says in words when the posts cannot be loaded", async () => {
    const server = openBlog()
    server.on("GET /api/blog/posts", () => refuse(503, "SERVICE_UNAVAILABLE", "Down"))
    expect(await screen.findByRole("heading", { name: "The posts could not be loaded" }, { timeout: 5000 })).toBeTruthy()
  })
})

describe("a post page", () => {
  it("shows the server's HTML with author, tags, share, related articles and its SEO title and description", async () => {
    openBlog("/blog/how-ocr-works")
    expect((await screen.findByRole("heading", { level: 1, name: "How on-device text extraction works" })).textContent).toBeTruthy()
    expect(screen.getByRole("heading", { level: 2, name: "The engine ships with the extension" })).toBeTruthy()
    expect(screen.getByRole("link", { name: "more" }).getAttribute("rel")).toBe("noopener nofollow")
    // The raw HTML of the Markdown is text on the page, never an element.
    expect(screen.getByText("<script>alert(1)</script>")).toBeTruthy()
    expect(document.querySelector("article script")).toBeNull()
    expect(screen.getAllByText("Sofia Alvarez").length).toBeGreaterThan(0)
    expect(screen.getByText("Sofia tunes the models.")).toBeTruthy()
    expect(within(screen.getByRole("list", { name: "Tags" })).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["#ocr", "#on-device", "#performance"])
    expect(screen.getByText("Updated")).toBeTruthy()
    expect(screen.getByRole("button", { name: "Copy link" })).toBeTruthy()
    expect(within(screen.getByRole("region", { name: "Related articles" })).getAllByRole("article").map((article) => within(article).getByRole("heading").textContent)).toEqual([
      "Why most of your image analysis never leaves your browser"
    ])
    await waitFor(() => expect(document.title).toBe("How on-device OCR works in Image Query AI"))
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute("content")).toBe("A look inside Image Query AI's text extraction.")
  })

  it("uses the title and excerpt when the SEO fields are empty, and the uploaded image when there is one", async () => {
    const withImage = makePost({ title: "Pictures", featuredImage: "https://api.test/api/blog/images/x.webp" })
    const server = createFakeApi(publicBlogRoutes([withImage]))
    resetSiteForTest(server.fetch)
    render(<SiteApp router="memory" initialPath={`/blog/${withImage.slug}`} />)
    await screen.findByRole("heading", { level: 1, name: "Pictures" })
    await waitFor(() => expect(document.title).toBe("Pictures"))
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute("content")).toBe(withImage.excerpt)
    expect(document.querySelector("article img")?.getAttribute("src")).toBe("https://api.test/api/blog/images/x.webp")
  })

  it("says when a post does not exist, or is a draft", async () => {
    openBlog("/blog/no-such-post")
    expect(await screen.findByRole("heading", { level: 1, name: "Post not found" })).toBeTruthy()
  })

  it("hides a draft from visitors", async () => {
    openBlog(`/blog/${DRAFT.slug}`)
    expect(await screen.findByRole("heading", { level: 1, name: "Post not found" })).toBeTruthy()
  })
})
