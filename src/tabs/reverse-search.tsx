// tabs/reverse-search.html: "Search the web for this image" for an image without a public address. The engine
// cannot fetch such an image, so it must be uploaded: this page shows the image and what will happen, and uploads
// it only when the user says so.
import { useEffect, useState } from "react"

import { PRODUCT_NAME } from "~core/company"
import { reverseSearchEngine, type ReverseSearchEngine } from "~core/analysis/reverse-search"
import { uploadHandoffItem } from "~extension/reverse-search/reverse-search"
import { ImageReadError, readImage, toRasterBlob } from "~panel/images/image-bytes"
import { Logo } from "~ui/Logo"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"

import { buildUploadForm } from "~extension/reverse-search/reverse-search-upload"

import "~ui/global-styles"
import "~ui/document-language"

type UploadState =
  | { kind: "reading" }
  | { kind: "error"; message: string }
  | { kind: "ready"; engine: ReverseSearchEngine; image: Blob; previewUrl: string }
  | { kind: "uploading"; engine: ReverseSearchEngine; previewUrl: string }

/** The handoff the opener left under this page's hash, read once and removed. */
async function loadImage(): Promise<Exclude<UploadState, { kind: "reading" | "uploading" }>> {
  const id = location.hash.slice(1)
  const item = uploadHandoffItem(id)
  const handoff = id ? await item.get() : null
  const engine = reverseSearchEngine(handoff?.engine)
  if (!handoff || !engine) return { kind: "error", message: "There is no image to search for any more. Choose Search the web again from the image." }
  try {
    const image = await toRasterBlob(await readImage(handoff))
    await item.remove()
    return { kind: "ready", engine, image, previewUrl: URL.createObjectURL(image) }
  } catch (error) {
    return { kind: "error", message: error instanceof ImageReadError ? error.message : "The image could not be read." }
  }
}

async function closeThisTab() {
  const tab = await chrome.tabs.getCurrent()
  if (tab?.id !== undefined) await chrome.tabs.remove(tab.id)
}

function ReverseSearchUpload() {
  const [state, setState] = useState<UploadState>({ kind: "reading" })
  useEffect(() => {
    void loadImage().then(setState)
  }, [])
  useEffect(() => {
    document.title = state.kind === "ready" || state.kind === "uploading" ? `Search ${state.engine.name} for this image — ${PRODUCT_NAME}` : `Search the web for this image — ${PRODUCT_NAME}`
  }, [state])

  async function upload() {
    if (state.kind !== "ready") return
    setState({ kind: "uploading", engine: state.engine, previewUrl: state.previewUrl })
    ;(await buildUploadForm(state.engine, state.image)).submit()
  }

  return (
    <main className="mx-auto max-w-xl space-y-5 p-6 text-gray-900 sm:p-10">
      <Logo />
      <h1 className="text-xl font-semibold text-brand-secondary">Search the web for this image</h1>
      {state.kind === "reading" && <Spinner label="Reading the image" />}
      {state.kind === "error" && <Notice>{state.message}</Notice>}
      {(state.kind === "ready" || state.kind === "uploading") && (
        <>
          <img src={state.previewUrl} alt="The image to search for" className="max-h-72 rounded-lg border border-gray-200 bg-gray-100 object-contain" />
          <p className="text-sm leading-6 text-gray-700">
            This image has no public address (it was captured, pasted, or made by the page), so {state.engine.name} cannot fetch it. To search with it,
            the image{state.kind === "ready" ? ` (${Math.max(1, Math.round(state.image.size / 1024))} KB)` : ""} must be uploaded to {state.engine.name}, under{" "}
            {state.engine.name}&apos;s own terms. Nothing is uploaded unless you choose to.
          </p>
          <div className="flex flex-wrap gap-3">
            <button type="button" className={buttonStyles.primary} disabled={state.kind === "uploading"} onClick={() => void upload()}>
              {state.kind === "uploading" ? `Uploading to ${state.engine.name}…` : `Upload to ${state.engine.name}`}
            </button>
            <button type="button" className={buttonStyles.secondary} disabled={state.kind === "uploading"} onClick={() => void closeThisTab()}>
              Cancel
            </button>
          </div>
        </>
      )}
    </main>
  )
}

export default ReverseSearchUpload
