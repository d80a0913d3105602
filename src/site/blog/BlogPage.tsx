import { useState } from "react"
import { Link } from "react-router"

import { buttonStyles } from "~ui/styles"

import { InertSubscribeForm } from "../layout/InertSubscribeForm"
import { FilterChips, type ChipOption } from "../page-parts/FilterChips"
import { FilteredResults } from "../page-parts/FilteredResults"
import { SearchField } from "../page-parts/SearchField"
import { PageTitle } from "../PageTitle"
import { PostByline, PostCard } from "./BlogPieces"
import { coverImage } from "./cover"
import { BLOG_CATEGORIES, BLOG_POSTS, searchPosts, sortedPosts } from "./posts"

export const POSTS_PER_PAGE = 3

const CATEGORY_CHIPS: readonly ChipOption<string>[] = [
  { value: null, label: "All" },
  ...Object.values(BLOG_CATEGORIES).map((item) => ({ value: item.slug, label: item.name }))
]

export default function BlogPage() {
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
  const clearFilters = () => {
    setQuery("")
    choose(null)
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title="Blog" />
      <div className="text-center">
        <h1 className="text-4xl font-bold tracking-tight">Blog</h1>
        <p className="mx-auto mt-3 max-w-2xl text-lg text-gray-600">News, guides and engineering notes from the Image Query AI team.</p>
      </div>

      <SearchField
        label="Search posts"
        value={query}
        onChange={(value) => {
          setQuery(value)
          setShown(POSTS_PER_PAGE)
        }}
      />

      <FilterChips options={CATEGORY_CHIPS} selected={category} onSelect={choose} className="mt-6 flex flex-wrap justify-center gap-2" />

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
              <PostByline post={featured} className="mt-6" />
            </div>
          </article>
        </section>
      )}

      <section aria-label="Posts" className="mt-12">
        <FilteredResults
          count={matches.length}
          nouns={["post", "posts"]}
          countClassName="sr-only"
          noResults={{ title: "No posts found", hint: "Try another word or category.", onClear: clearFilters }}
        >
          <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {visible.map((post) => (
              <li key={post.id}>
                <PostCard post={post} headingLevel={2} />
              </li>
            ))}
          </ul>
        </FilteredResults>
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
