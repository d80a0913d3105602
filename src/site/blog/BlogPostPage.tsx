import { useEffect, useState } from "react"
import { Link, useParams } from "react-router"

import { categoryName, type PublicPost } from "~core/admin/blog"
import { ArrowLeft, Link2, Share2 } from "~ui/icons"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { PageSection } from "~site/shared/page-parts/PageSection"
import { PageTitle } from "~site/shared/PageTitle"

import { usePost } from "./blog-requests"
import { AuthorAvatar, formatPostDate, PostCard, PostImage, PostMeta } from "./BlogPieces"

/** Puts the post's SEO description into the page's meta description while the post is shown. */
function useMetaDescription(description: string) {
  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]')
    const created = !meta
    if (!meta) {
      meta = document.createElement("meta")
      meta.name = "description"
      document.head.append(meta)
    }
    const previous = meta.content
    meta.content = description
    return () => {
      if (created) meta.remove()
      else meta.content = previous
    }
  }, [description])
}

/** The looks of the post's HTML, element by element (the HTML is the server's, so it carries no classes). */
const ARTICLE_STYLES =
  "mt-4 text-lg leading-8 text-gray-700 [&_a]:text-blue-700 [&_a]:underline [&_blockquote]:mt-5 [&_blockquote]:border-l-4 [&_blockquote]:border-gray-200 [&_blockquote]:pl-4 [&_code]:rounded [&_code]:bg-gray-100 [&_code]:px-1 [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:tracking-tight [&_h2]:text-brand-secondary [&_h3]:mt-8 [&_h3]:text-xl [&_h3]:font-semibold [&_img]:mt-5 [&_img]:rounded-xl [&_li]:mt-2 [&_ol]:mt-5 [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:mt-5 [&_pre]:mt-5 [&_pre]:overflow-x-auto [&_pre]:rounded-xl [&_pre]:bg-gray-100 [&_pre]:p-4 [&_ul]:mt-5 [&_ul]:list-disc [&_ul]:pl-6 [&_ul]:marker:text-brand-accent"

function ShareLinks({ post }: { post: PublicPost }) {
  const [note, setNote] = useState("")
  const url = window.location.href
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url)
      setNote("Link copied.")
    } catch {
      setNote("Copying is blocked here: copy the address from the address bar.")
    }
  }
  const share = async () => {
    try {
      await navigator.share({ title: post.title, text: post.excerpt, url })
    } catch {
      // The person closed the share sheet: nothing to report.
    }
  }
  const external = [
    { label: "Share on X", href: `https://x.com/intent/post?text=${encodeURIComponent(post.title)}&url=${encodeURIComponent(url)}` },
    { label: "Share on LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(url)}` }
  ]
  return (
    <section aria-label="Share this post" className="flex flex-wrap items-center gap-2">
      <button type="button" onClick={() => void copy()} className={buttonStyles.secondary}>
        <Link2 aria-hidden="true" className="h-4 w-4" /> Copy link
      </button>
      {typeof navigator.share === "function" && (
        <button type="button" onClick={() => void share()} className={buttonStyles.secondary}>
          <Share2 aria-hidden="true" className="h-4 w-4" /> Share
        </button>
      )}
      {external.map((link) => (
        <a key={link.label} href={link.href} target="_blank" rel="noopener noreferrer" className={buttonStyles.ghost}>
          {link.label}
        </a>
      ))}
      <p role="status" className="w-full text-sm text-gray-600">
        {note}
      </p>
    </section>
  )
}

function PostNotFound() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6 lg:px-8">
      <PageTitle title="Post not found" />
      <h1 className="text-3xl font-bold tracking-tight">Post not found</h1>
      <p className="mt-3 text-gray-600">This post does not exist or has moved.</p>
      <Link to="/blog" className={`mt-8 ${buttonStyles.primary}`}>
        See all posts
      </Link>
    </div>
  )
}

function Post({ post }: { post: PublicPost }) {
  useMetaDescription(post.seo.description || post.excerpt)
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <title>{post.seo.title || post.title}</title>
      <Link to="/blog" className={`${buttonStyles.ghost} -ml-3`}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> All posts
      </Link>
      <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-emerald-800">{categoryName(post.category)}</p>
      <h1 className="mt-2 text-3xl font-bold leading-tight tracking-tight sm:text-4xl">{post.title}</h1>
      <div className="mt-6 flex items-center gap-3">
        {post.author.name && <AuthorAvatar name={post.author.name} />}
        <div>
          {post.author.name && (
            <p className="text-sm font-medium">
              {post.author.name} {post.author.role && <span className="font-normal text-gray-600">· {post.author.role}</span>}
            </p>
          )}
          <PostMeta post={post} />
        </div>
      </div>
      <PostImage post={post} className="mt-8 aspect-[1200/630] w-full rounded-2xl object-cover" />
      {/* The server rendered this HTML from the post's Markdown with core's renderer and sanitised it there (raw HTML
          shown as text, only http(s), mailto and site links, rel="noopener nofollow"): that is why it may go in as is. */}
      <div className={ARTICLE_STYLES} dangerouslySetInnerHTML={{ __html: post.html }} />
      {post.publishedAt && post.updatedAt.slice(0, 10) !== post.publishedAt.slice(0, 10) && (
        <p className="mt-8 text-sm text-gray-600">
          Updated <time dateTime={post.updatedAt}>{formatPostDate(post.updatedAt)}</time>
        </p>
      )}
      <div className="mt-10 border-t border-gray-200 pt-6">
        {post.tags.length > 0 && (
          <>
            <h2 className="sr-only">Tags</h2>
            <ul aria-label="Tags" className="flex flex-wrap gap-2">
              {post.tags.map((tag) => (
                <li key={tag} className="rounded-full bg-gray-100 px-3 py-1 text-sm text-gray-700">
                  #{tag}
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="mt-6">
          <ShareLinks post={post} />
        </div>
      </div>
      {post.author.bio && (
        <aside aria-labelledby="author-heading" className="mt-10 flex gap-4 rounded-2xl border border-gray-200 bg-gray-50 p-6">
          <AuthorAvatar name={post.author.name} size="h-14 w-14" />
          <div>
            <h2 id="author-heading" className="font-semibold">
              About the author
            </h2>
            <p className="mt-1 text-sm text-gray-700">{post.author.bio}</p>
          </div>
        </aside>
      )}
      {post.related.length > 0 && (
        <PageSection headingId="related-heading" title="Related articles" look="card" className="mt-12">
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {post.related.map((other) => (
              <li key={other.id}>
                <PostCard post={other} />
              </li>
            ))}
          </ul>
        </PageSection>
      )}
    </article>
  )
}

function PostUnavailable({ retry }: { retry: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6 lg:px-8">
      <PageTitle title="Blog" />
      <h1 className="text-3xl font-bold tracking-tight">This post could not be loaded</h1>
      <p className="mt-3 text-gray-600">Check your connection and try again.</p>
      <button type="button" onClick={retry} className={`mt-8 ${buttonStyles.secondary}`}>
        Try again
      </button>
    </div>
  )
}

export default function BlogPostPage() {
  const { slugOrId = "" } = useParams()
  const post = usePost(slugOrId)
  if (post.isPending) return <Spinner label="Loading the post" />
  if (post.isError) return <PostUnavailable retry={() => void post.refetch()} />
  return post.data ? <Post post={post.data} /> : <PostNotFound />
}
