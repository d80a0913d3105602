import { useEffect, useState } from "react"
import { Link } from "react-router"

import { BLOG_CATEGORIES, categoryName } from "~core/admin/blog"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { InertSubscribeForm } from "~site/shared/page-parts/InertSubscribeForm"
import { FilterChips, type ChipOption } from "~site/shared/page-parts/FilterChips"
import { FilteredResults } from "~site/shared/page-parts/FilteredResults"
import { SearchField } from "~site/shared/page-parts/SearchField"
import { PageTitle } from "~site/shared/PageTitle"

import { usePosts } from "./blog-requests"
import { PostByline, PostCard, PostImage } from "./BlogPieces"

/** How long typing rests before the search is asked of the server: one request per word, not per key. */
export const SEARCH_DELAY_MS = 250

const CATEGORY_CHIPS: readonly ChipOption<string>[] = [{ value: null, label: "All" }, ...BLOG_CATEGORIES.map((item) => ({ value: item.slug, label: item.name }))]

function useSettled(value: string, delay: number): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay)
    return () => clearTimeout(timer)
  }, [value, delay])
  return value === "" ? "" : settled
}

export default function BlogPage() {
  const [query, setQuery] = useState("")
  const [category, setCategory] = useState<string | null>(null)
  const search = useSettled(query, SEARCH_DELAY_MS)
  const posts = usePosts({ query: search, category })

  const all = posts.data?.pages.flatMap((page) => page.posts) ?? []
  const total = posts.data?.pages[0]?.total ?? 0
  const filtering = search.trim() !== "" || category !== null
  // The newest post has its own place above the list while nothing is filtered.
  const featured = filtering ? undefined : all[0]
  const listed = featured ? all.slice(1) : all
  const count = featured ? total - 1 : total

  const clearFilters = () => {
    setQuery("")
    setCategory(null)
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title="Blog" />
      <div className="text-center">
        <h1 className="text-4xl font-bold tracking-tight">Blog</h1>
        <p className="mx-auto mt-3 max-w-2xl text-lg text-gray-600">News, guides and engineering notes from the Image Query AI team.</p>
      </div>

      <SearchField label="Search posts" value={query} onChange={setQuery} />

      <FilterChips options={CATEGORY_CHIPS} selected={category} onSelect={setCategory} className="mt-6 flex flex-wrap justify-center gap-2" />

      {featured && (
        <section aria-label="Featured post" className="mt-12">
          <article className="grid overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm lg:grid-cols-2">
            <PostImage post={featured} className="aspect-[1200/630] h-full w-full object-cover" />
            <div className="flex flex-col justify-center p-8">
              <p className="text-xs font-semibold uppercase tracking-wide text-emerald-800">Featured · {categoryName(featured.category)}</p>
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
        {posts.isPending ? (
          <Spinner label="Loading posts" />
        ) : posts.isError && !posts.data ? (
          <div role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-8 text-center">
            <h2 className="text-lg font-semibold">The posts could not be loaded</h2>
            <p className="mt-2 text-sm text-gray-700">Check your connection and try again.</p>
            <button type="button" onClick={() => void posts.refetch()} className={`mt-4 ${buttonStyles.secondary}`}>
              Try again
            </button>
          </div>
        ) : featured && count === 0 ? null : (
          <FilteredResults
            count={count}
            nouns={["post", "posts"]}
            countClassName="sr-only"
            noResults={{ title: "No posts found", hint: "Try another word or category.", onClear: clearFilters }}
          >
            <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {listed.map((post) => (
                <li key={post.id}>
                  <PostCard post={post} headingLevel={2} />
                </li>
              ))}
            </ul>
          </FilteredResults>
        )}
        {posts.hasNextPage && (
          <div className="mt-10 text-center">
            <button type="button" disabled={posts.isFetchingNextPage} onClick={() => void posts.fetchNextPage()} className={buttonStyles.secondary}>
              {posts.isFetchingNextPage ? "Loading…" : "Load more"}
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
