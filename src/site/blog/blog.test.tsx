import { fireEvent, render, screen, within } from "@testing-library/react"
import { MemoryRouter, Route, Routes } from "react-router"
import { describe, expect, it } from "vitest"

import BlogPage from "./BlogPage"
import BlogPostPage from "./BlogPostPage"
import { BLOG_POSTS, findPost, readTimeMinutes, relatedPosts, searchPosts } from "./posts"

function renderBlog(path = "/blog") {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/blog" element={<BlogPage />} />
        <Route path="/blog/:slugOrId" element={<BlogPostPage />} />
      </Routes>
    </MemoryRouter>
  )
}

const listedTitles = () =>
  within(screen.getByRole("region", { name: "Posts" }))
    .queryAllByRole("heading", { level: 2 })
    .map((heading) => heading.textContent)

describe("the blog's posts", () => {
  it("has at least six complete posts with unique slugs and ids", () => {
    expect(BLOG_POSTS.length).toBeGreaterThanOrEqual(6)
    expect(new Set(BLOG_POSTS.map((post) => post.slug)).size).toBe(BLOG_POSTS.length)
    expect(new Set(BLOG_POSTS.map((post) => post.id)).size).toBe(BLOG_POSTS.length)
    for (const post of BLOG_POSTS) {
      expect(post.content.length, post.slug).toBeGreaterThanOrEqual(4)
      expect(post.seo.metaDescription.length, post.slug).toBeGreaterThan(50)
      expect(readTimeMinutes(post)).toBeGreaterThanOrEqual(1)
    }
  })

  it("finds a post by slug or by id", () => {
    expect(findPost("how-ocr-works")?.id).toBe("2")
    expect(findPost("2")?.slug).toBe("how-ocr-works")
    expect(findPost("nope")).toBeUndefined()
  })

  it("searches titles, excerpts and tags, within a category", () => {
    expect(searchPosts(BLOG_POSTS, "OCR", null).map((post) => post.slug)).toEqual(["how-ocr-works"])
    expect(searchPosts(BLOG_POSTS, "billing", null).map((post) => post.slug)).toEqual(["choosing-the-right-plan"])
    expect(searchPosts(BLOG_POSTS, "", "guides").map((post) => post.slug)).toEqual([
      "asking-better-questions-about-images",
      "face-and-object-detection-explained"
    ])
    expect(searchPosts(BLOG_POSTS, "billing", "guides")).toEqual([])
  })

  it("relates posts of the same category first", () => {
    const related = relatedPosts(findPost("asking-better-questions-about-images")!)
    expect(related).toHaveLength(3)
    expect(related[0]!.slug).toBe("face-and-object-detection-explained")
  })
})

describe("the blog list", () => {
  it("shows the featured post apart, three posts, and more on Load more", () => {
    renderBlog()
    expect(within(screen.getByRole("region", { name: "Featured post" })).getByRole("heading").textContent).toBe(
      "Introducing Image Query AI: ask questions about any image on the web"
    )
    expect(listedTitles()).toHaveLength(3)
    fireEvent.click(screen.getByRole("button", { name: "Load more" }))
    expect(listedTitles()).toHaveLength(6)
    expect(listedTitles()).not.toContain("Introducing Image Query AI: ask questions about any image on the web")
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull()
  })

  it("filters by category chip and by search", () => {
    renderBlog()
    fireEvent.click(screen.getByRole("button", { name: "Privacy & security" }))
    expect(screen.queryByRole("region", { name: "Featured post" })).toBeNull()
    expect(listedTitles()).toEqual(["Why most of your image analysis never leaves your browser"])
    fireEvent.click(screen.getByRole("button", { name: "All" }))
    fireEvent.change(screen.getByLabelText("Search posts"), { target: { value: "launch" } })
    expect(listedTitles()).toEqual(["Introducing Image Query AI: ask questions about any image on the web"])
    fireEvent.change(screen.getByLabelText("Search posts"), { target: { value: "quantum" } })
    expect(screen.getByRole("heading", { name: "No posts found" })).toBeTruthy()
    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }))
    expect(screen.getByRole("region", { name: "Featured post" })).toBeTruthy()
  })
})

describe("a post page", () => {
  it("shows the post with author, tags, share, related articles and its SEO title and description", async () => {
    renderBlog("/blog/how-ocr-works")
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("How on-device text extraction works")
    expect(screen.getAllByText("Sofia Alvarez").length).toBeGreaterThan(0)
    expect(within(screen.getByRole("list", { name: "Tags" })).getAllByRole("listitem").map((item) => item.textContent)).toEqual([
      "#ocr",
      "#on-device",
      "#performance"
    ])
    expect(screen.getByRole("button", { name: "Copy link" })).toBeTruthy()
    expect(within(screen.getByRole("region", { name: "Related articles" })).getAllByRole("article")).toHaveLength(3)
    await screen.findByRole("heading", { level: 1 })
    expect(document.title).toBe("How on-device OCR works in Image Query AI")
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(/^A look inside Image Query AI's text extraction/)
  })

  it("opens a post by its id too", () => {
    renderBlog("/blog/3")
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Why most of your image analysis never leaves your browser")
  })

  it("says when a post does not exist", () => {
    renderBlog("/blog/no-such-post")
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Post not found")
  })
})
