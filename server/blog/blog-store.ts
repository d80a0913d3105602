/** The queries of the blog's posts (table blog_posts, migration 018). */
import { sql, type Expression, type SqlBool } from "kysely"

import type { BlogCategorySlug, PostStatus } from "~core/admin/blog"

import type { Db } from "../db/transaction"

/** What a post's row holds, less its text: the lists' columns. */
const SUMMARY_COLUMNS = [
  "id",
  "slug",
  "title",
  "excerpt",
  "category",
  "tags",
  "featured_image_key",
  "status",
  "published_at",
  "seo_title",
  "seo_description",
  "author_name",
  "author_role",
  "author_bio",
  "created_at",
  "updated_at"
] as const

/** The text's words, counted in the database so a list does not read every post's whole text. */
const wordCount = sql<number>`coalesce(array_length(regexp_split_to_array(nullif(btrim(content, E' \\n\\r\\t'), ''), E'\\\\s+'), 1), 0)`.as("words")

export interface PostValues {
  slug: string
  title: string
  excerpt: string
  content: string
  html: string
  category: BlogCategorySlug
  tags: string[]
  status: PostStatus
  published_at: Date | null
  seo_title: string
  seo_description: string
  author_name: string
  author_role: string
  author_bio: string
  updated_at: Date
}

export interface PostFilter {
  query: string
  category?: BlogCategorySlug
  /** Only this status; the public list asks for "published". */
  status?: PostStatus
  order: "published" | "updated"
  offset: number
  limit: number
}

/** `text` as a LIKE pattern that matches it literally anywhere. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`

export async function insertPost(db: Db, values: PostValues & { created_at: Date }) {
  return db
    .insertInto("blog_posts")
    .values({ ...values, tags: sql`${values.tags}::text[]` })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updatePost(db: Db, id: string, values: PostValues) {
  return db
    .updateTable("blog_posts")
    .set({ ...values, tags: sql`${values.tags}::text[]` })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The post, locked until the transaction ends when `lock`: two edits of one post wait for each other. */
export function findPostById(db: Db, id: string, lock = false) {
  const query = db.selectFrom("blog_posts").selectAll().where("id", "=", id)
  return (lock ? query.forUpdate() : query).executeTakeFirst()
}

export function findPublishedBySlug(db: Db, slug: string) {
  return db.selectFrom("blog_posts").selectAll().where("slug", "=", slug).where("status", "=", "published").executeTakeFirst()
}

export async function listPosts(db: Db, filter: PostFilter) {
  let query = db.selectFrom("blog_posts")
  if (filter.status) query = query.where("status", "=", filter.status)
  if (filter.category) query = query.where("category", "=", filter.category)
  const needle = filter.query.trim()
  if (needle) {
    const pattern = containing(needle)
    query = query.where((eb) =>
      eb.or([
        eb("title", "ilike", pattern),
        eb("excerpt", "ilike", pattern),
        eb("content", "ilike", pattern),
        sql<SqlBool>`array_to_string(tags, ' ') ilike ${pattern}` as Expression<SqlBool>
      ])
    )
  }
  const { total } = await query.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow()
  const ordered =
    filter.order === "published"
      ? query.orderBy("published_at", (order) => order.desc().nullsLast()).orderBy("created_at", "desc")
      : query.orderBy("updated_at", "desc")
  const rows = await ordered.select([...SUMMARY_COLUMNS, wordCount]).orderBy("id").offset(filter.offset).limit(filter.limit).execute()
  return { rows, total: Number(total) }
}

/** Up to `count` other published posts of the category or sharing a tag: most shared first, then the newest. */
export function listRelated(db: Db, post: { id: string; category: string; tags: string[] }, count: number) {
  const shared = sql<number>`(select count(*) from unnest(tags) as tag where tag = any(${post.tags}::text[]))`
  return db
    .selectFrom("blog_posts")
    .select([...SUMMARY_COLUMNS, wordCount])
    .where("status", "=", "published")
    .where("id", "!=", post.id)
    .where((eb) => eb.or([eb("category", "=", post.category), sql<SqlBool>`tags && ${post.tags}::text[]` as Expression<SqlBool>]))
    .orderBy(sql`(case when category = ${post.category} then 2 else 0 end) + ${shared}`, "desc")
    .orderBy("published_at", "desc")
    .limit(count)
    .execute()
}

export function deletePost(db: Db, id: string) {
  return db.deleteFrom("blog_posts").where("id", "=", id).returning(["id", "slug", "title", "featured_image_key"]).executeTakeFirst()
}

export function setFeaturedImage(db: Db, id: string, key: string, now: Date) {
  return db.updateTable("blog_posts").set({ featured_image_key: key, updated_at: now }).where("id", "=", id).returningAll().executeTakeFirstOrThrow()
}

export type PostRow = NonNullable<Awaited<ReturnType<typeof findPostById>>>
export type PostSummaryRow = Awaited<ReturnType<typeof listRelated>>[number]
