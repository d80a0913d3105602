/**
 * /admin/content/new and /admin/content/:id: a post's editor. The Markdown's live preview is core's renderer, the very
 * one the server renders the published HTML with, so what the preview shows is what visitors get. markdown-it comes
 * with this page's chunk only (routes.tsx loads it lazily), never with the public pages.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useDeferredValue, useMemo, useState, type FormEvent } from "react"
import { Link, useLocation, useNavigate, useParams } from "react-router"

import { BLOG_CATEGORIES, POST_LIMITS, slugFromTitle, type Post } from "~core/admin/blog"
import { renderMarkdown } from "~core/markdown"
import { attempt, failureText } from "~site/shared/failure-text"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { SelectField, TextareaField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { PageTitle } from "~site/shared/PageTitle"

import { contentKeys, createPost, deletePost, savePost, useAdminPost } from "./content-requests"
import { draftOf, draftProblems, EMPTY_DRAFT, inputOf, saveFailure, type DraftErrors, type PostDraft } from "./post-draft"
import { PostImageField } from "./PostImageField"

const dangerTrigger =
  "inline-flex items-center justify-center rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 focus-ring focus-visible:outline-offset-2"

const PREVIEW_STYLES =
  "min-h-40 rounded-xl border border-gray-200 bg-white p-4 text-sm leading-6 text-gray-700 [&_a]:text-blue-700 [&_a]:underline [&_h2]:mt-4 [&_h2]:text-lg [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:font-semibold [&_img]:mt-3 [&_img]:rounded-lg [&_li]:mt-1 [&_ol]:mt-3 [&_ol]:list-decimal [&_ol]:pl-5 [&_p]:mt-3 [&_pre]:mt-3 [&_pre]:overflow-x-auto [&_pre]:bg-gray-100 [&_pre]:p-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-5"

function MarkdownPreview({ markdown }: { markdown: string }) {
  // Typing stays quick on a long post: the preview follows when React has time.
  const deferred = useDeferredValue(markdown)
  const html = useMemo(() => renderMarkdown(deferred), [deferred])
  return (
    <section aria-labelledby="preview-heading">
      <h2 id="preview-heading" className="text-sm font-medium">
        Preview
      </h2>
      {/* The core renderer's output: raw HTML shown as text, only safe links and images, so it may go in as is. */}
      <div className={`mt-1 ${PREVIEW_STYLES}`} data-testid="markdown-preview" dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  )
}

function PostForm({ post }: { post: Post | null }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState<PostDraft>(post ? draftOf(post) : EMPTY_DRAFT)
  // A new post's slug follows its title until it is edited; a saved post's address never changes by itself.
  const [slugEdited, setSlugEdited] = useState(post !== null)
  const [errors, setErrors] = useState<DraftErrors>({})
  const [message, setMessage] = useState<string | null>(null)
  // A new post's first save moves to its own address, which says it was saved.
  const arrival = useLocation().state as { saved?: string } | null
  const [saved, setSaved] = useState(arrival?.saved ?? "")
  const [saving, setSaving] = useState(false)
  const [current, setCurrent] = useState<Post | null>(post)

  const set = <K extends keyof PostDraft>(field: K, value: PostDraft[K]) => {
    setDraft((before) => ({ ...before, [field]: value, ...(field === "title" && !slugEdited ? { slug: slugFromTitle(value as string) } : {}) }))
    setSaved("")
  }
  const text = (field: keyof PostDraft) => ({
    value: draft[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => set(field, event.target.value as never)
  })

  const keep = (answered: Post) => {
    setCurrent(answered)
    queryClient.setQueryData(contentKeys.post(answered.id), answered)
    void queryClient.invalidateQueries({ queryKey: contentKeys.lists })
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problems = draftProblems(draft)
    setErrors(problems)
    setMessage(null)
    if (Object.keys(problems).length > 0) return setMessage("Some fields need a change before the post can be saved.")
    setSaving(true)
    try {
      const answered = current ? await savePost(current.id, inputOf(draft)) : await createPost(inputOf(draft))
      keep(answered)
      setDraft(draftOf(answered))
      setSlugEdited(true)
      setSaved(answered.status === "published" ? "Saved and published." : "Saved as a draft.")
      const created = answered.status === "published" ? "Created and published." : "Created as a draft."
      if (!current) void navigate(`/admin/content/${answered.id}`, { replace: true, state: { saved: created } })
    } catch (failure) {
      const refused = saveFailure(failure)
      setErrors(refused.errors)
      setMessage(refused.message)
    } finally {
      setSaving(false)
    }
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title={current ? `Edit: ${current.title}` : "New post"} />
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <Link to="/admin/content" className={buttonStyles.link}>
            All posts
          </Link>
          <h1 className="mt-1 text-3xl font-bold tracking-tight">{current ? "Edit post" : "New post"}</h1>
          {current?.status === "published" && (
            <p className="mt-1 text-sm text-gray-600">
              Published at{" "}
              <Link to={`/blog/${current.slug}`} className={buttonStyles.link}>
                /blog/{current.slug}
              </Link>
            </p>
          )}
        </div>
        {current && (
          <ConfirmDialog
            trigger={{ label: "Delete post", className: dangerTrigger }}
            title={`Delete “${current.title}”?`}
            description="The post and its featured image are removed at once; a published post disappears from the blog. This cannot be undone."
            keepLabel="Keep the post"
            confirm={{ label: "Delete post", busyLabel: "Deleting…", className: buttonStyles.danger }}
            onConfirm={(close) =>
              attempt(
                () => deletePost(current.id),
                () => {
                  close()
                  // The deleted post is not asked for again; the list is, on the page it returns to.
                  queryClient.removeQueries({ queryKey: contentKeys.post(current.id) })
                  void queryClient.invalidateQueries({ queryKey: contentKeys.lists })
                  void navigate("/admin/content")
                }
              )
            }
          />
        )}
      </header>

      <form noValidate onSubmit={(event) => void submit(event)} className="grid gap-8 lg:grid-cols-2">
        <div className="space-y-4">
          <TextField label="Title" required maxLength={POST_LIMITS.title} {...text("title")} />
          <TextField
            label="Slug"
            required
            maxLength={POST_LIMITS.slug}
            hint={`The address: /blog/${draft.slug || "…"}. Lower-case letters, digits and hyphens${slugEdited ? "" : "; suggested from the title"}.`}
            {...text("slug")}
            onChange={(event) => {
              setSlugEdited(true)
              set("slug", event.target.value)
            }}
          />
          <TextareaField label="Excerpt" rows={2} maxLength={POST_LIMITS.excerpt} hint="Shown in the lists and under the title." {...text("excerpt")} />
          <TextareaField label="Text (Markdown)" rows={18} hint="## for a heading, - for a list item, [words](https://…) for a link; a picture only from this site (another one shows as a link to it). HTML is shown as text." {...text("content")} />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField label="Category" value={draft.category} error={errors.category} onChange={(event) => set("category", event.target.value as PostDraft["category"])}>
              {BLOG_CATEGORIES.map((category) => (
                <option key={category.slug} value={category.slug}>
                  {category.name}
                </option>
              ))}
            </SelectField>
            <SelectField label="Status" value={draft.status} error={errors.status} onChange={(event) => set("status", event.target.value as PostDraft["status"])}>
              <option value="draft">Draft (only admins see it)</option>
              <option value="published">Published (on the blog)</option>
            </SelectField>
          </div>
          <TextField label="Tags" hint={`Separated by commas, at most ${POST_LIMITS.tags}.`} {...text("tags")} />
          <fieldset className="space-y-4 rounded-xl border border-gray-200 p-4">
            <legend className="px-1 text-sm font-medium">Search engines</legend>
            <TextField label="SEO title" maxLength={POST_LIMITS.seoTitle} hint="Empty: the post's title." {...text("seoTitle")} />
            <TextareaField label="SEO description" rows={2} maxLength={POST_LIMITS.seoDescription} hint="Empty: the excerpt." {...text("seoDescription")} />
          </fieldset>
          <fieldset className="space-y-4 rounded-xl border border-gray-200 p-4">
            <legend className="px-1 text-sm font-medium">Author</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Author's name" maxLength={POST_LIMITS.author} hint="Empty: no byline." {...text("authorName")} />
              <TextField label="Author's role" maxLength={POST_LIMITS.author} {...text("authorRole")} />
            </div>
            <TextareaField label="About the author" rows={2} maxLength={POST_LIMITS.authorBio} {...text("authorBio")} />
          </fieldset>
          {message && <Notice>{message}</Notice>}
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" disabled={saving} className={buttonStyles.primary}>
              {saving ? "Saving…" : current ? "Save changes" : "Create post"}
            </button>
            <p role="status" className="text-sm text-emerald-800">
              {saved}
            </p>
          </div>
        </div>
        <div className="space-y-6">
          <MarkdownPreview markdown={draft.content} />
          {current ? <PostImageField post={current} onUploaded={keep} /> : <p className="text-sm text-gray-600">Create the post first to add a featured image.</p>}
        </div>
      </form>
    </div>
  )
}

export default function PostEditorPage() {
  const { id = null } = useParams()
  const post = useAdminPost(id)
  if (id === null) return <PostForm post={null} />
  if (post.isPending) return <Spinner label="Loading the post" />
  if (post.isError) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <PageTitle title="Post not found" />
        <h1 className="text-2xl font-bold">This post could not be opened</h1>
        <div className="mt-4">
          <Notice>{failureText(post.error)}</Notice>
        </div>
        <Link to="/admin/content" className={`mt-6 ${buttonStyles.secondary}`}>
          All posts
        </Link>
      </div>
    )
  }
  return <PostForm key={post.data.id} post={post.data} />
}
