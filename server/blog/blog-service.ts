/**
 * The blog: admins write posts in Markdown (rendered once per save with core's renderer, which makes raw HTML and
 * unsafe links inert), visitors read the published ones. Every admin change is written to the audit log in the
 * change's own transaction. A slug is unique: of two saves of one slug at once, the database lets exactly one win.
 */
import type { FastifyInstance } from "fastify"

import type { AuditEventKind } from "~core/admin/audit"
import {
  ADMIN_POSTS_PAGE_SIZE,
  BLOG_PAGE_SIZE,
  RELATED_POSTS_SHOWN,
  type Post,
  type PostList,
  type PostSummary,
  type PublicPost,
  type adminPostsQuerySchema,
  type postInputSchema
} from "~core/admin/blog"
import { readMinutes, renderMarkdown } from "~core/markdown"
import type * as z from "zod"

import { recordAuditEvent } from "../audit/audit-log-store"
import { inTransaction, type Db } from "../db/transaction"
import { ApiError, notFound } from "../http/errors"
import * as store from "./blog-store"
import { postImageUrl } from "./post-image"

type PostInput = z.output<typeof postInputSchema>
type PostsQuery = z.output<typeof adminPostsQuerySchema>

const noSuchPost = () => notFound("No post has this id.")
const slugTaken = (slug: string) => new ApiError(409, "SLUG_TAKEN", `Another post already uses the address /blog/${slug}: choose another slug.`)
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505"

/** Who changes a post, from where, when. */
interface Change {
  adminId: string
  ip: string
}

export function blogService(app: FastifyInstance) {
  const db = app.database.db
  const now = () => new Date(app.clock())

  const summaryOf = (row: store.PostSummaryRow): PostSummary => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    category: row.category as PostSummary["category"],
    tags: row.tags,
    featuredImage: postImageUrl(app.config.publicUrl, row.featured_image_key),
    status: row.status,
    publishedAt: row.published_at ? new Date(row.published_at).toISOString() : null,
    updatedAt: new Date(row.updated_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    seo: { title: row.seo_title, description: row.seo_description },
    author: { name: row.author_name, role: row.author_role, bio: row.author_bio },
    readMinutes: Math.max(1, Math.round(Number(row.words) / 200))
  })

  const postOf = (row: store.PostRow): Post => ({
    ...summaryOf({ ...row, words: 0 }),
    readMinutes: readMinutes(row.content),
    content: row.content,
    html: row.html
  })

  const audit = (trx: Db, kind: AuditEventKind, change: Change, post: { id: string; slug: string; title: string }, at: Date, extra: Record<string, string | boolean> = {}) =>
    recordAuditEvent(trx, { kind, actorId: change.adminId, subjectId: null, target: `post /blog/${post.slug}`, detail: { postId: post.id, slug: post.slug, title: post.title, ...extra }, ip: change.ip }, at)

  /** The columns of a save: the HTML rendered from the Markdown, publishedAt set the first time it is published. */
  const valuesOf = (input: PostInput, publishedAt: Date | null, at: Date): store.PostValues => ({
    slug: input.slug,
    title: input.title,
    excerpt: input.excerpt,
    content: input.content,
    html: renderMarkdown(input.content),
    category: input.category,
    tags: input.tags,
    status: input.status,
    published_at: publishedAt ?? (input.status === "published" ? at : null),
    seo_title: input.seo.title,
    seo_description: input.seo.description,
    author_name: input.author.name,
    author_role: input.author.role,
    author_bio: input.author.bio,
    updated_at: at
  })

  /** The save, with a duplicate slug (a unique violation, also of a save at the same time) told as 409. */
  const saving = async <T>(slug: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (error) {
      if (isUniqueViolation(error)) throw slugTaken(slug)
      throw error
    }
  }

  const list = async (query: PostsQuery, status: "published" | undefined, pageSize: number): Promise<PostList> => {
    const { rows, total } = await store.listPosts(db, {
      query: query.query,
      category: query.category,
      status: status ?? query.status,
      order: status === "published" ? "published" : "updated",
      offset: (query.page - 1) * pageSize,
      limit: pageSize
    })
    return { posts: rows.map(summaryOf), total, page: query.page, pageSize }
  }

  return {
    /** Every post, drafts too, the latest edited first. */
    adminList: (query: PostsQuery) => list(query, undefined, ADMIN_POSTS_PAGE_SIZE),

    async adminRead(id: string): Promise<Post> {
      const row = await store.findPostById(db, id)
      if (!row) throw noSuchPost()
      return postOf(row)
    },

    async create(change: Change, input: PostInput): Promise<Post> {
      const at = now()
      const row = await saving(input.slug, () =>
        inTransaction(db, async (trx) => {
          const created = await store.insertPost(trx, { ...valuesOf(input, null, at), created_at: at })
          await audit(trx, "admin.post_created", change, created, at, { status: created.status })
          if (created.status === "published") await audit(trx, "admin.post_published", change, created, at)
          return created
        })
      )
      return postOf(row)
    },

    /** The whole post replaced by the editor's; updatedAt is the time of this edit, publishedAt stays the first. */
    async update(change: Change, id: string, input: PostInput): Promise<Post> {
      const at = now()
      const row = await saving(input.slug, () =>
        inTransaction(db, async (trx) => {
          const before = await store.findPostById(trx, id, true)
          if (!before) throw noSuchPost()
          const published = before.published_at ? new Date(before.published_at) : null
          const updated = await store.updatePost(trx, id, valuesOf(input, published, at))
          const slugChange: Record<string, string> = before.slug === updated.slug ? {} : { previousSlug: before.slug }
          await audit(trx, "admin.post_updated", change, updated, at, { status: updated.status, ...slugChange })
          if (before.status !== "published" && updated.status === "published") await audit(trx, "admin.post_published", change, updated, at)
          return updated
        })
      )
      return postOf(row)
    },

    /** Deletes it; its image's key, for the route to remove the object once the row is gone. */
    async delete(change: Change, id: string): Promise<{ imageKey: string | null }> {
      const at = now()
      return inTransaction(db, async (trx) => {
        const deleted = await store.deletePost(trx, id)
        if (!deleted) throw noSuchPost()
        await audit(trx, "admin.post_deleted", change, deleted, at)
        return { imageKey: deleted.featured_image_key }
      })
    },

    /** 404 before an upload is stored for a post that does not exist. */
    async requireExists(id: string): Promise<void> {
      if (!(await store.findPostById(db, id))) throw noSuchPost()
    },

    /** The stored image becomes the post's; the previous one's key, for the route to remove. */
    async setImage(change: Change, id: string, key: string): Promise<{ post: Post; previous: string | null }> {
      const at = now()
      return inTransaction(db, async (trx) => {
        const before = await store.findPostById(trx, id, true)
        if (!before) throw noSuchPost()
        const updated = await store.setFeaturedImage(trx, id, key, at)
        await audit(trx, "admin.post_updated", change, updated, at, { featuredImage: true })
        return { post: postOf(updated), previous: before.featured_image_key }
      })
    },

    /** Published posts only, the newest first. */
    publicList: (query: PostsQuery) => list(query, "published", BLOG_PAGE_SIZE),

    /** A published post and its related posts; a draft is as unknown as a slug never used. */
    async publicRead(slug: string): Promise<PublicPost> {
      const row = await store.findPublishedBySlug(db, slug)
      if (!row) throw notFound("No published post has this address.")
      const related = await store.listRelated(db, row, RELATED_POSTS_SHOWN)
      return { ...postOf(row), related: related.map(summaryOf) }
    }
  }
}
