/** The editor's featured image: the current one (or the drawn cover), and a file picker that uploads at once. */
import { useId, useState } from "react"

import type { Post } from "~core/admin/blog"
import { failureText } from "~site/shared/failure-text"
import { Notice } from "~ui/Notice"
import { postImage } from "~site/shared/post-cover"

import { uploadPostImage } from "./content-requests"

/** As the server's limit (server/blog/post-image.ts): told before a long upload is refused. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024
const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp"]

export function PostImageField({ post, onUploaded }: { post: Post; onUploaded: (post: Post) => void }) {
  const id = useId()
  const [error, setError] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)

  const upload = async (file: File) => {
    setError(null)
    if (!IMAGE_TYPES.includes(file.type)) return setError("Choose a PNG, JPEG or WebP picture.")
    if (file.size > MAX_IMAGE_BYTES) return setError("The picture is larger than 5 MB: choose a smaller one.")
    setUploading(true)
    try {
      onUploaded(await uploadPostImage(post.id, file))
    } catch (failure) {
      setError(failureText(failure))
    } finally {
      setUploading(false)
    }
  }

  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium">Featured image</legend>
      <img src={postImage(post)} alt="" width={1200} height={630} className="aspect-[1200/630] w-full max-w-sm rounded-xl border border-gray-200 object-cover" />
      <p className="text-xs text-gray-500">{post.featuredImage ? "The uploaded picture." : "None uploaded: the blog draws this cover."}</p>
      <label htmlFor={id} className="block text-sm">
        Upload a picture (PNG, JPEG or WebP, at most 5 MB)
      </label>
      <input
        id={id}
        type="file"
        accept={IMAGE_TYPES.join(",")}
        disabled={uploading}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0]
          event.target.value = ""
          if (file) void upload(file)
        }}
        className="block text-sm file:mr-3 file:rounded-lg file:border file:border-gray-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold"
      />
      <p role="status" className="text-sm text-gray-600">
        {uploading ? "Uploading…" : ""}
      </p>
      {error && (
        <div id={`${id}-error`}>
          <Notice>{error}</Notice>
        </div>
      )}
    </fieldset>
  )
}
