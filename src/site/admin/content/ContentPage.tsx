/** /admin/content: the blog's posts, drafts too, the latest edited first, with their status; "New post" opens the editor. */
import { useState } from "react"
import { Link } from "react-router"

import { categoryName, type PostStatus, type PostSummary } from "~core/admin/blog"
import { longDate } from "~core/format"
import { DataTable, type DataColumn } from "~site/shared/DataTable"
import { PageTitle } from "~site/shared/PageTitle"
import { Pager } from "~ui/Pager"
import { CompactSelect, CompactTextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"

import { useAdminPosts } from "./content-requests"

const STATUS_LOOKS: Record<PostStatus, { label: string; className: string }> = {
  draft: { label: "Draft", className: "bg-amber-100 text-amber-900" },
  published: { label: "Published", className: "bg-emerald-100 text-emerald-900" }
}

const POST_COLUMNS: readonly DataColumn<PostSummary>[] = [
  {
    header: "Title",
    rowHeader: true,
    cell: (post) => (
      <>
        <Link to={`/admin/content/${post.id}`} className={`${buttonStyles.link} font-medium`}>
          {post.title}
        </Link>
        <span className="block text-xs text-gray-500">/blog/{post.slug}</span>
      </>
    )
  },
  {
    header: "Status",
    cell: (post) => <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_LOOKS[post.status].className}`}>{STATUS_LOOKS[post.status].label}</span>
  },
  { header: "Category", from: "sm", cell: (post) => categoryName(post.category) },
  { header: "Updated", cell: (post) => <time dateTime={post.updatedAt}>{longDate(post.updatedAt)}</time> }
]

export default function ContentPage() {
  const [query, setQuery] = useState("")
  const [status, setStatus] = useState<PostStatus | null>(null)
  const [page, setPage] = useState(1)
  const posts = useAdminPosts({ query, status, page })
  const pages = posts.data ? Math.max(1, Math.ceil(posts.data.total / posts.data.pageSize)) : 1

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Content" />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <Link to="/admin" className={buttonStyles.link}>
            Admin Dashboard
          </Link>
          <h1 className="mt-1 text-3xl font-bold tracking-tight">Content</h1>
          <p className="mt-1 text-gray-600">The blog&apos;s posts. Drafts are seen here only; published posts are on /blog.</p>
        </div>
        <Link to="/admin/content/new" className={buttonStyles.primary}>
          New post
        </Link>
      </header>

      <div className="flex flex-wrap gap-4">
        <div className="w-full sm:w-72">
          <CompactTextField
            label="Search posts"
            type="search"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value)
              setPage(1)
            }}
          />
        </div>
        <div className="w-full sm:w-48">
          <CompactSelect
            label="Status"
            value={status ?? ""}
            onChange={(event) => {
              setStatus((event.target.value || null) as PostStatus | null)
              setPage(1)
            }}
          >
            <option value="">All</option>
            <option value="draft">Drafts</option>
            <option value="published">Published</option>
          </CompactSelect>
        </div>
      </div>

      {posts.isPending ? (
        <Spinner label="Loading the posts" />
      ) : posts.isError ? (
        <Notice>The posts could not be loaded. {posts.error.message}</Notice>
      ) : (
        <div className="overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm">
          <DataTable
            caption="Posts, the latest edited first"
            columns={POST_COLUMNS}
            rows={posts.data.posts}
            rowKey={(post) => post.id}
            empty="No posts match. Write one with New post."
          />
        </div>
      )}

      <Pager page={page} pages={pages} onPage={setPage} />
    </div>
  )
}
