/**
 * The blog's posts as the API carries them (server/blog, the admin's /admin/content and the public /blog): written in
 * Markdown, rendered to `html` by the server with core's renderer (markdown.ts), draft or published.
 */
import * as z from "zod"

export const BLOG_CATEGORIES = [
  { slug: "product-updates", name: "Product updates" },
  { slug: "guides", name: "Guides" },
  { slug: "privacy-security", name: "Privacy & security" },
  { slug: "behind-the-scenes", name: "Behind the scenes" }
] as const
export type BlogCategorySlug = (typeof BLOG_CATEGORIES)[number]["slug"]
const CATEGORY_SLUGS = BLOG_CATEGORIES.map((category) => category.slug) as [BlogCategorySlug, ...BlogCategorySlug[]]

export const categoryName = (slug: string) => BLOG_CATEGORIES.find((category) => category.slug === slug)?.name ?? slug

export const POST_STATUSES = ["draft", "published"] as const
export type PostStatus = (typeof POST_STATUSES)[number]

/** Posts per page of the public list and of the admin's. */
export const BLOG_PAGE_SIZE = 6
export const ADMIN_POSTS_PAGE_SIZE = 50
export const RELATED_POSTS_SHOWN = 3

export const POST_LIMITS = { title: 160, slug: 100, excerpt: 400, content: 100_000, tags: 10, tag: 40, seoTitle: 120, seoDescription: 320, author: 120, authorBio: 400 } as const
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** A slug suggested from a title: lower case, letters and digits, words joined by hyphens. */
export function slugFromTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, POST_LIMITS.slug)
    .replace(/-+$/, "")
}

const categorySchema = z.enum(CATEGORY_SLUGS, { message: `use one of ${CATEGORY_SLUGS.join(", ")}` })
const seoSchema = z.object({ title: z.string(), description: z.string() })
const authorSchema = z.object({ name: z.string(), role: z.string(), bio: z.string() })

/** A post in a list: everything but its text. */
export const postSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  slug: z.string(),
  excerpt: z.string(),
  category: categorySchema,
  tags: z.array(z.string()),
  /** The uploaded picture's address; null when the site draws a cover of its own. */
  featuredImage: z.string().nullable(),
  status: z.enum(POST_STATUSES),
  /** ISO time it was first published; null for a draft never published. */
  publishedAt: z.string().nullable(),
  updatedAt: z.string(),
  createdAt: z.string(),
  /** Empty fields: the page uses the title and the excerpt. */
  seo: seoSchema,
  /** The byline; an empty name shows none. */
  author: authorSchema,
  readMinutes: z.number().int()
})
export type PostSummary = z.infer<typeof postSummarySchema>

export const postSchema = postSummarySchema.extend({
  /** Markdown, as written. */
  content: z.string(),
  /** The Markdown rendered and sanitised by the server (markdown.ts): safe to put into a page as it is. */
  html: z.string()
})
export type Post = z.infer<typeof postSchema>

/** GET /api/blog/posts/:slug: the post and up to three others of its category or sharing its tags. */
export const publicPostSchema = postSchema.extend({ related: z.array(postSummarySchema) })
export type PublicPost = z.infer<typeof publicPostSchema>

export const postListSchema = z.object({ posts: z.array(postSummarySchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
export type PostList = z.infer<typeof postListSchema>

const text = (field: string, max: number) => z.string().trim().max(max, `${field} must be at most ${max} characters`)

/** POST /api/admin/posts and PUT /api/admin/posts/:id: the whole post as the editor sends it. */
export const postInputSchema = z.strictObject({
  title: text("The title", POST_LIMITS.title).min(1, "Give the post a title"),
  slug: z
    .string()
    .trim()
    .min(1, "Give the post a slug")
    .max(POST_LIMITS.slug, `The slug must be at most ${POST_LIMITS.slug} characters`)
    .regex(SLUG_PATTERN, "The slug may hold only lower-case letters, digits and single hyphens between them"),
  excerpt: text("The excerpt", POST_LIMITS.excerpt).default(""),
  content: z.string().max(POST_LIMITS.content, `The text must be at most ${POST_LIMITS.content} characters`).default(""),
  category: categorySchema,
  tags: z
    .array(text("A tag", POST_LIMITS.tag).min(1, "A tag cannot be empty").toLowerCase())
    .max(POST_LIMITS.tags, `At most ${POST_LIMITS.tags} tags`)
    .default([])
    .transform((tags) => [...new Set(tags)]),
  status: z.enum(POST_STATUSES, { message: "use draft or published" }).default("draft"),
  seo: z
    .strictObject({ title: text("The SEO title", POST_LIMITS.seoTitle).default(""), description: text("The SEO description", POST_LIMITS.seoDescription).default("") })
    .default({ title: "", description: "" }),
  author: z
    .strictObject({ name: text("The author's name", POST_LIMITS.author).default(""), role: text("The author's role", POST_LIMITS.author).default(""), bio: text("The author's bio", POST_LIMITS.authorBio).default("") })
    .default({ name: "", role: "", bio: "" })
})
export type PostInput = z.input<typeof postInputSchema>

const pageSchema = z.coerce.number({ message: "page must be a number" }).int().min(1).max(10_000).default(1)

/** GET /api/blog/posts. */
export const publicPostsQuerySchema = z.strictObject({ query: z.string().trim().max(200).default(""), category: categorySchema.optional(), page: pageSchema })
/** GET /api/admin/posts: drafts too, filtered by status. */
export const adminPostsQuerySchema = publicPostsQuerySchema.extend({ status: z.enum(POST_STATUSES).optional() })
export type PostsQuery = z.input<typeof adminPostsQuerySchema>

export const postIdParamsSchema = z.strictObject({ id: z.uuid({ message: "not a post id" }) })
export const postSlugParamsSchema = z.strictObject({ slug: z.string().max(POST_LIMITS.slug) })
