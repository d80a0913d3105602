/**
 * The public blog's calls (published posts only), their answers checked at run time, and the queries the pages read
 * them through. No Markdown here: the server sends each post's HTML rendered and sanitised.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query"

import { ApiRequestError } from "~http/http-client"
import { getApiClient } from "~site-session/site-client"
import { postListSchema, publicPostSchema, type PostList, type PublicPost } from "~core/admin/blog"
import { parseAnswer } from "~site-session/parse-answer"

export interface BlogFilter {
  query: string
  category: string | null
}

export const blogKeys = {
  posts: (filter: BlogFilter) => ["blog", "posts", filter.query.trim(), filter.category] as const,
  post: (slug: string) => ["blog", "post", slug] as const
}

export async function fetchPosts(filter: BlogFilter, page: number): Promise<PostList> {
  const params = { query: filter.query.trim() || undefined, category: filter.category ?? undefined, page: page > 1 ? page : undefined }
  return parseAnswer(postListSchema, await getApiClient().get("/api/blog/posts", { params, auth: "none" }))
}

/** The published post at this slug, or null when there is none (404). */
export async function fetchPost(slug: string): Promise<PublicPost | null> {
  try {
    return parseAnswer(publicPostSchema, await getApiClient().get(`/api/blog/posts/${encodeURIComponent(slug)}`, { auth: "none" }))
  } catch (failure) {
    if (failure instanceof ApiRequestError && failure.status === 404) return null
    throw failure
  }
}

/** The list a page at a time ("Load more" asks for the next); the previous results stay while a new filter loads. */
export function usePosts(filter: BlogFilter) {
  return useInfiniteQuery({
    queryKey: blogKeys.posts(filter),
    queryFn: ({ pageParam }) => fetchPosts(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.pageSize < last.total ? last.page + 1 : undefined),
    placeholderData: keepPreviousData
  })
}

export function usePost(slug: string) {
  return useQuery({ queryKey: blogKeys.post(slug), queryFn: () => fetchPost(slug), retry: false })
}
