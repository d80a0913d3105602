import { useId, useState } from "react"
import { Link } from "react-router"

import { countOf } from "~core/format"
import { Search } from "~ui/icons"
import { buttonStyles } from "~ui/styles"

import { InertSubscribeForm } from "../layout/InertSubscribeForm"
import { PageTitle } from "../PageTitle"
import { AuthorAvatar, PostCard, PostMeta } from "./BlogPieces"
import { coverImage } from "./cover"
import { BLOG_CATEGORIES, BLOG_POSTS, searchPosts, sortedPosts } from "./posts"

export const POSTS_PER_PAGE = 3

const chip = (selected: boolean) =>
  `rounded-full border px-4 py-2 text-sm font-medium transition focus-ring focus-visible:outline-offset-2 ${
    selected ? "border-brand-secondary bg-brand-secondary text-white" : "border-gray-300 bg-white text-gray-700 hover:border-gray-400"
  }`

export default function BlogPage() {
  const searchId = useId()
  const [query, setQuery] = useState("")
  const [category, setCategory] = useState<string | null>(null)
  const [shown, setShown] = useState(POSTS_PER_PAGE)

  const all = sortedPosts(BLOG_POSTS)
  const featured = all.find((post) => post.featured)
  const filtering = query.trim() !== "" || category !== null
  // The featured post has its own place above the list while nothing is filtered.
  const matches = searchPosts(filtering || !featured ? all : all.filter((post) => post !== featured), query, category)
  const visible = matches.slice(0, shown)

  const choose = (slug: string | null) => {
    setCategory(slug)
    setShown(POSTS_PER_PAGE)
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title="Blog" />
      <div className="text-center">
        <h1 className="text-4xl font-bold tracking-tight">Blog</h1>
        <p className="mx-auto mt-3 max-w-2xl text-lg text-gray-600">News, guides and engineering notes from the Image Query AI team.</p>
      </div>

      <div className="mx-auto mt-8 max-w-xl">
        <label htmlFor={searchId} className="sr-only">
          Search posts
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-gray-400" />
          <input
            id={searchId}
            type="search"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value)
              setShown(POSTS_PER_PAGE)
            }}
            placeholder="Search posts"
            className="block w-full rounded-xl border border-gray-300 bg-white py-3 pl-10 pr-3 text-base shadow-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"
          />
        </div>
      </div>

      <div role="group" aria-label="Categories" className="mt-6 flex flex-wrap justify-center gap-2">
        <button type="button" aria-pressed={category === null} onClick={() => choose(null)} className={chip(category === null)}>
          All
        </button>
        {Object.values(BLOG_CATEGORIES).map((item) => (
          <button key={item.slug} type="button" aria-pressed={category === item.slug} onClick={() => choose(item.slug)} className={chip(category === item.slug)}>
            {item.name}
          </button>
        ))}
      </div>

      {!filtering && featured && (
        <section aria-label="Featured post" className="mt-12">
          <article className="grid overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm lg:grid-cols-2">
            <img src={coverImage(featured)} alt="" width={1200} height={630} className="aspect-[1200/630] h-full w-full object-cover" />
            <div className="flex flex-col justify-center p-8">
              <p className="text-xs font-semibold uppercase tracking-wide text-emerald-800">Featured · {featured.category.name}</p>
              <h2 className="mt-2 text-2xl font-bold leading-tight sm:text-3xl">
                <Link to={`/blog/${featured.slug}`} className="hover:underline focus-visible:underline">
                  {featured.title}
                </Link>
              </h2>
              <p className="mt-3 text-gray-600">{featured.excerpt}</p>
              <div className="mt-6 flex items-center gap-3">
                <AuthorAvatar name={featured.author.name} />
                <div>
                  <p className="text-sm font-medium">{featured.author.name}</p>
                  <PostMeta post={featured} />
                </div>
              </div>
            </div>
          </article>
        </section>
      )}

      <section aria-label="Posts" className="mt-12">
        <p role="status" className="sr-only">
          {countOf(matches.length, "post", "posts")}
        </p>
        {matches.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-gray-300 p-10 text-center">
            <h2 className="text-lg font-semibold">No posts found</h2>
            <p className="mt-2 text-sm text-gray-600">Try another word or category.</p>
            <button
              type="button"
              className={`mt-6 ${buttonStyles.secondary}`}
              onClick={() => {
                setQuery("")
                choose(null)
              }}
            >
              Clear filters
            </button>
          </div>
        ) : (
          <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {visible.map((post) => (
              <li key={post.id}>
                <PostCard post={post} headingLevel={2} />
              </li>
            ))}
          </ul>
        )}
        {visible.length < matches.length && (
          <div className="mt-10 text-center">
            <button type="button" onClick={() => setShown((count) => count + POSTS_PER_PAGE)} className={buttonStyles.secondary}>
              Load more
            </button>
          </div>
        )}
      </section>

      <div className="mt-16">
        <InertSubscribeForm
          title="Get new posts by e-mail"
          tone="dark"
          notice="Thanks! Our newsletter has not started yet, so nothing was sent or stored. New posts appear on this page first."
        >
          <p className="mt-2 text-gray-300">Product news, guides and the occasional look behind the scenes. No spam.</p>
        </InertSubscribeForm>
      </div>
    </div>
  )
}
