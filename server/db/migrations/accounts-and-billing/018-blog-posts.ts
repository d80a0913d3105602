import { sql, type Kysely } from "kysely"

import { renderMarkdown } from "~core/markdown"

import { SEED_POSTS } from "../../../blog/seed-posts"

/**
 * The blog as content (issue 27): posts written in Markdown in the admin's /admin/content, with the HTML the server
 * rendered from it kept beside it (rendered once per save, not per visit). The posts that were sample text compiled
 * into the site are the seed, published at their original dates.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("blog_posts")
    .addColumn("id", "uuid", (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // Unique: two editors saving the same slug at once are told 409 rather than both getting it.
    .addColumn("slug", "text", (column) => column.notNull().unique())
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("excerpt", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("content", "text", (column) => column.notNull())
    .addColumn("html", "text", (column) => column.notNull())
    .addColumn("category", "text", (column) => column.notNull())
    .addColumn("tags", sql`text[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
    .addColumn("featured_image_key", "text")
    .addColumn("status", "text", (column) => column.notNull().check(sql`status in ('draft', 'published')`))
    /** Set when first published and kept after: unpublishing and publishing again does not move the post up the list. */
    .addColumn("published_at", "timestamptz")
    .addColumn("seo_title", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("seo_description", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("author_name", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("author_role", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("author_bio", "text", (column) => column.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (column) => column.notNull())
    .addColumn("updated_at", "timestamptz", (column) => column.notNull())
    .execute()
  await sql`create index blog_posts_published on blog_posts (published_at desc) where status = 'published'`.execute(db)

  for (const post of SEED_POSTS) {
    await sql`
      insert into blog_posts (slug, title, excerpt, content, html, category, tags, status, published_at, seo_title, seo_description, author_name, author_role, author_bio, created_at, updated_at)
      values (${post.slug}, ${post.title}, ${post.excerpt}, ${post.content}, ${renderMarkdown(post.content)}, ${post.category}, ${post.tags}::text[], 'published', ${post.publishedAt},
        ${post.seo.title}, ${post.seo.description}, ${post.author.name}, ${post.author.role}, ${post.author.bio}, ${post.publishedAt}, ${post.updatedAt})
    `.execute(db)
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("blog_posts").execute()
}
