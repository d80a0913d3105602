/** The admin's calls to /api/admin/posts (drafts and published posts), their answers checked at run time. */
import { useQuery } from "@tanstack/react-query"

import { confirmationSchema } from "~core/api-answer"
import { getApiClient } from "~site-session/site-client"
import { postListSchema, postSchema, type Post, type PostInput, type PostList, type PostStatus } from "~core/admin/blog"
import { parseAnswer } from "~site-session/parse-answer"

const POSTS_ROOT = ["admin", "posts"] as const

export const contentKeys = {
  /** Every list, whatever its filter: what a saved or deleted post refreshes. */
  lists: [...POSTS_ROOT, "list"] as const,
  list: (filter: AdminPostsFilter) => [...POSTS_ROOT, "list", filter] as const,
  post: (id: string | null) => [...POSTS_ROOT, "post", id] as const
}
const POSTS_PATH = "/api/admin/posts"
const postPath = (id: string) => `${POSTS_PATH}/${encodeURIComponent(id)}`

export interface AdminPostsFilter {
  query: string
  status: PostStatus | null
  page: number
}

export async function fetchAdminPosts(filter: AdminPostsFilter): Promise<PostList> {
  const params = { query: filter.query.trim() || undefined, status: filter.status ?? undefined, page: filter.page > 1 ? filter.page : undefined }
  return parseAnswer(postListSchema, await getApiClient().get(POSTS_PATH, { params }))
}

export const fetchAdminPost = async (id: string): Promise<Post> => parseAnswer(postSchema, await getApiClient().get(postPath(id)))
export const createPost = async (input: PostInput): Promise<Post> => parseAnswer(postSchema, await getApiClient().post(POSTS_PATH, input))
export const savePost = async (id: string, input: PostInput): Promise<Post> => parseAnswer(postSchema, await getApiClient().put(postPath(id), input))
export const deletePost = async (id: string) => parseAnswer(confirmationSchema("deleted"), await getApiClient().delete(postPath(id)))

/** PUT multipart with the one field `image` (the API client's form PUT, as the organisation's logo). */
export async function uploadPostImage(id: string, file: File): Promise<Post> {
  const form = new FormData()
  form.append("image", file, file.name)
  return parseAnswer(postSchema, await getApiClient().putForm(`${postPath(id)}/image`, form))
}

export function useAdminPosts(filter: AdminPostsFilter) {
  return useQuery({ queryKey: contentKeys.list(filter), queryFn: () => fetchAdminPosts(filter), staleTime: 0 })
}

export function useAdminPost(id: string | null) {
  return useQuery({ queryKey: contentKeys.post(id), queryFn: () => fetchAdminPost(id!), enabled: id !== null, staleTime: 0 })
}
