/**
 * What the blog's page tests share: posts as the server answers them, and the public /api/blog routes answered from
 * them as the server does (published only, search, category, pages of BLOG_PAGE_SIZE, related posts). Test-only:
 * imported by *.test.tsx files, never by the app.
 */
import { BLOG_PAGE_SIZE, type Post, type PostSummary, type PublicPost } from "~core/admin/blog"
import { renderMarkdown } from "~core/markdown"

import { answer, refuse, type Handler } from "../fake-api-server"

let counter = 0

/** A published post; `overrides` on top, its HTML rendered from its content as the server does. */
export function makePost(overrides: Partial<Post> = {}): Post {
  const number = ++counter
  const content = overrides.content ?? `## Part ${number}\n\nThe text of post ${number}.`
  return {
    id: `00000000-0000-4000-8000-${String(number).padStart(12, "0")}`,
    title: `Post number ${number}`,
    slug: `post-number-${number}`,
    excerpt: `What post ${number} is about.`,
    category: "guides",
    tags: [],
    featuredImage: null,
    status: "published",
    publishedAt: new Date(Date.UTC(2026, 8, number)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 8, number)).toISOString(),
    createdAt: new Date(Date.UTC(2026, 8, number)).toISOString(),
    seo: { title: "", description: "" },
    author: { name: "", role: "", bio: "" },
    readMinutes: 1,
    ...overrides,
    content,
    html: renderMarkdown(content)
  }
}

export const summaryOf = ({ content: _content, html: _html, ...summary }: Post): PostSummary => summary

/** GET /api/blog/posts and GET /api/blog/posts/:slug over `posts`, as the server answers them. */
export function publicBlogRoutes(posts: Post[]): Array<[string, Handler]> {
  const published = () => posts.filter((post) => post.status === "published").sort((a, b) => b.publishedAt!.localeCompare(a.publishedAt!))
  const list: Handler = (request) => {
    const params = new URLSearchParams(request.query)
    const needle = (params.get("query") ?? "").toLowerCase()
    const category = params.get("category")
    const page = Number(params.get("page") ?? "1")
    const matches = published().filter(
      (post) => (!category || post.category === category) && (!needle || [post.title, post.excerpt, post.content, ...post.tags].some((text) => text.toLowerCase().includes(needle)))
    )
    const slice = matches.slice((page - 1) * BLOG_PAGE_SIZE, page * BLOG_PAGE_SIZE).map(summaryOf)
    return answer({ posts: slice, total: matches.length, page, pageSize: BLOG_PAGE_SIZE })
  }
  const routes: Array<[string, Handler]> = [["GET /api/blog/posts", list]]
  for (const post of posts) {
    routes.push([
      `GET /api/blog/posts/${post.slug}`,
      () => {
        if (post.status !== "published") return refuse(404, "NOT_FOUND", "No published post has this address.")
        const related = published().filter((other) => other.id !== post.id && (other.category === post.category || other.tags.some((tag) => post.tags.includes(tag))))
        const answered: PublicPost = { ...post, related: related.slice(0, 3).map(summaryOf) }
        return answer(answered)
      }
    ])
  }
  return routes
}
