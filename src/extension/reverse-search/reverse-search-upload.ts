/**
 * Sending an image to a search engine's own upload form. A cross-site POST that the engine answers with its
 * results page can only be made by navigating a page, so the upload page builds the engine's form and submits
 * it: the tab becomes the engine's results page, as if the user had chosen the file on the engine's site.
 */
import type { ReverseSearchEngine } from "~core/analysis/reverse-search"
import { blobToDataUrl } from "~extension/in-page/data-url"

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/bmp": "bmp" }

/** The engine's form holding the image, ready to submit (appended to `document`'s body). */
export async function buildUploadForm(engine: ReverseSearchEngine, image: Blob, document: Document = globalThis.document): Promise<HTMLFormElement> {
  const form = document.createElement("form")
  form.method = "post"
  form.enctype = "multipart/form-data"
  form.action = engine.upload.action
  form.hidden = true
  const input = document.createElement("input")
  input.name = engine.upload.field
  if (engine.upload.encoding === "base64") {
    input.type = "hidden"
    input.value = (await blobToDataUrl(image)).replace(/^data:[^,]*,/, "")
  } else {
    input.type = "file"
    const files = new DataTransfer()
    files.items.add(new File([image], `image.${EXTENSIONS[image.type] ?? "png"}`, { type: image.type || "image/png" }))
    input.files = files.files
  }
  form.append(input)
  document.body.append(form)
  return form
}
