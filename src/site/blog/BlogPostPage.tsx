import { useEffect, useState } from "react"
import { Link, useParams } from "react-router"

import { ArrowLeft, Link2, Share2 } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

import { PageSection } from "../page-parts/PageSection"
import { PageTitle } from "../PageTitle"
import { AuthorAvatar, formatPostDate, PostCard, PostMeta } from "./BlogPieces"
import { coverImage } from "./cover"
import { findPost, relatedPosts, type BlogPost, type PostBlock } from "./posts"

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

function Block({ block }: { block: PostBlock }) {
  if ("heading" in block) return <h2 className="mt-10 text-2xl font-bold tracking-tight">{block.heading}</h2>
  if ("paragraph" in block) return <p className="mt-5 text-lg leading-8 text-gray-700">{block.paragraph}</p>
  return (
    <ul className="mt-5 list-disc space-y-2 pl-6 text-lg leading-8 text-gray-700 marker:text-brand-accent">
      {block.list.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  )
}

function ShareLinks({ post }: { post: BlogPost }) {
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

function Post({ post }: { post: BlogPost }) {
  useMetaDescription(post.seo.metaDescription)
  const related = relatedPosts(post)
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <title>{post.seo.metaTitle}</title>
      <Link to="/blog" className={`${buttonStyles.ghost} -ml-3`}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" /> All posts
      </Link>
      <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-emerald-800">{post.category.name}</p>
      <h1 className="mt-2 text-3xl font-bold leading-tight tracking-tight sm:text-4xl">{post.title}</h1>
      <div className="mt-6 flex items-center gap-3">
        <AuthorAvatar name={post.author.name} />
        <div>
          <p className="text-sm font-medium">
            {post.author.name} <span className="font-normal text-gray-600">· {post.author.role}</span>
          </p>
          <PostMeta post={post} />
        </div>
      </div>
      <img src={coverImage(post)} alt="" width={1200} height={630} className="mt-8 aspect-[1200/630] w-full rounded-2xl object-cover" />
      <div className="mt-4">
        {post.content.map((block, index) => (
          <Block key={index} block={block} />
        ))}
      </div>
      {post.updatedAt !== post.publishedAt && (
        <p className="mt-8 text-sm text-gray-600">
          Updated <time dateTime={post.updatedAt}>{formatPostDate(post.updatedAt)}</time>
        </p>
      )}
      <div className="mt-10 border-t border-gray-200 pt-6">
        <h2 className="sr-only">Tags</h2>
        <ul aria-label="Tags" className="flex flex-wrap gap-2">
          {post.tags.map((tag) => (
            <li key={tag} className="rounded-full bg-gray-100 px-3 py-1 text-sm text-gray-700">
              #{tag}
            </li>
          ))}
        </ul>
        <div className="mt-6">
          <ShareLinks post={post} />
        </div>
      </div>
      <aside aria-labelledby="author-heading" className="mt-10 flex gap-4 rounded-2xl border border-gray-200 bg-gray-50 p-6">
        <AuthorAvatar name={post.author.name} size="h-14 w-14" />
        <div>
          <h2 id="author-heading" className="font-semibold">
            About the author
          </h2>
          <p className="mt-1 text-sm text-gray-700">{post.author.bio}</p>
        </div>
      </aside>
      <PageSection headingId="related-heading" title="Related articles" look="card" className="mt-12">
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {related.map((other) => (
            <li key={other.id}>
              <PostCard post={other} />
            </li>
          ))}
        </ul>
      </PageSection>
    </article>
  )
}

export default function BlogPostPage() {
  const { slugOrId } = useParams()
  const post = findPost(slugOrId)
  return post ? <Post post={post} /> : <PostNotFound />
}
