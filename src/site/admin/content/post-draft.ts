/**
 * The editor's form as it is typed (every field a string, the tags one comma-separated line), to and from the API's
 * post, and its problems in plain words by field, from the same schema the server parses with.
 */
import { ApiRequestError } from "~http/http-client"
import { postInputSchema, type BlogCategorySlug, type Post, type PostInput, type PostStatus } from "~core/admin/blog"
import { failureText } from "~site/shared/failure-text"

export interface PostDraft {
  title: string
  slug: string
  excerpt: string
  content: string
  category: BlogCategorySlug
  tags: string
  status: PostStatus
  seoTitle: string
  seoDescription: string
  authorName: string
  authorRole: string
  authorBio: string
}

export const EMPTY_DRAFT: PostDraft = {
  title: "",
  slug: "",
  excerpt: "",
  content: "",
  category: "product-updates",
  tags: "",
  status: "draft",
  seoTitle: "",
  seoDescription: "",
  authorName: "",
  authorRole: "",
  authorBio: ""
}

export const draftOf = (post: Post): PostDraft => ({
  title: post.title,
  slug: post.slug,
  excerpt: post.excerpt,
  content: post.content,
  category: post.category,
  tags: post.tags.join(", "),
  status: post.status,
  seoTitle: post.seo.title,
  seoDescription: post.seo.description,
  authorName: post.author.name,
  authorRole: post.author.role,
  authorBio: post.author.bio
})

export const inputOf = (draft: PostDraft): PostInput => ({
  title: draft.title,
  slug: draft.slug,
  excerpt: draft.excerpt,
  content: draft.content,
  category: draft.category,
  tags: draft.tags
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean),
  status: draft.status,
  seo: { title: draft.seoTitle, description: draft.seoDescription },
  author: { name: draft.authorName, role: draft.authorRole, bio: draft.authorBio }
})

/** The draft's field a schema path names ("seo.title" is seoTitle). */
const FIELD_OF_PATH: Record<string, keyof PostDraft> = {
  "seo.title": "seoTitle",
  "seo.description": "seoDescription",
  "author.name": "authorName",
  "author.role": "authorRole",
  "author.bio": "authorBio"
}

export type DraftErrors = Partial<Record<keyof PostDraft, string>>

/** What is wrong with the draft, by field, in the schema's words; empty when it may be sent. */
export function draftProblems(draft: PostDraft): DraftErrors {
  const parsed = postInputSchema.safeParse(inputOf(draft))
  if (parsed.success) return {}
  const errors: DraftErrors = {}
  for (const issue of parsed.error.issues) {
    const path = issue.path.filter((part) => typeof part === "string").join(".")
    const field = FIELD_OF_PATH[path] ?? (path.split(".")[0] as keyof PostDraft)
    errors[field] ??= issue.message
  }
  return errors
}

/** A refused save in plain words: on the slug field when it is taken, else one message with the server's details. */
export function saveFailure(failure: unknown): { errors: DraftErrors; message: string | null } {
  if (failure instanceof ApiRequestError && failure.code === "SLUG_TAKEN") return { errors: { slug: failure.message }, message: null }
  if (failure instanceof ApiRequestError && failure.details?.length) return { errors: {}, message: `${failure.message} ${failure.details.join("; ")}` }
  return { errors: {}, message: failureText(failure) }
}
