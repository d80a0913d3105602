import { Link } from "react-router"

import { categoryName, type PostSummary } from "~core/admin/blog"
import { longDate } from "~core/format"
import { initialsOf } from "~site/shared/page-parts/initials"
import { postImage } from "~site/shared/post-cover"

export const formatPostDate = (iso: string) => longDate(iso)

export function AuthorAvatar({ name, size = "h-10 w-10" }: { name: string; size?: string }) {
  return (
    <span aria-hidden="true" className={`flex ${size} shrink-0 items-center justify-center rounded-full bg-blue-100 text-sm font-bold text-blue-800`}>
      {initialsOf(name)}
    </span>
  )
}

export function PostMeta({ post }: { post: PostSummary }) {
  return (
    <p className="text-sm text-gray-600">
      {post.publishedAt && (
        <>
          <time dateTime={post.publishedAt}>{formatPostDate(post.publishedAt)}</time> ·{" "}
        </>
      )}
      {post.readMinutes} min read
    </p>
  )
}

/** Under a post in a list: its author's avatar and name over the date and reading time. */
export function PostByline({ post, className, avatarSize }: { post: PostSummary; className: string; avatarSize?: string }) {
  return (
    <div className={`${className} flex items-center gap-3`}>
      {post.author.name && <AuthorAvatar name={post.author.name} size={avatarSize} />}
      <div>
        {post.author.name && <p className="text-sm font-medium">{post.author.name}</p>}
        <PostMeta post={post} />
      </div>
    </div>
  )
}

/** The post's picture: its uploaded featured image, or the cover the site draws for it. Decorative beside the title. */
export function PostImage({ post, className }: { post: PostSummary; className: string }) {
  return <img src={postImage(post)} alt="" width={1200} height={630} className={className} />
}

/** A post in a list: cover, category, title (the link), excerpt, author and date. */
export function PostCard({ post, headingLevel = 3 }: { post: PostSummary; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm">
      <PostImage post={post} className="aspect-[1200/630] w-full object-cover" />
      <div className="flex flex-1 flex-col p-6">
        <p className="text-xs font-semibold uppercase tracking-wide text-emerald-800">{categoryName(post.category)}</p>
        <Heading className="mt-2 text-lg font-semibold leading-snug">
          <Link to={`/blog/${post.slug}`} className="hover:underline focus-visible:underline">
            {post.title}
          </Link>
        </Heading>
        <p className="mt-2 flex-1 text-sm leading-6 text-gray-600">{post.excerpt}</p>
        <PostByline post={post} className="mt-4" avatarSize="h-8 w-8" />
      </div>
    </article>
  )
}
