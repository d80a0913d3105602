/**
 * The page's image index, injected into a tab's frames only when the side panel asks for their images
 * (chrome.scripting.executeScript with PAGE_INDEX_FILE, see panel/page-frames.ts), never declared as a content
 * script: pages nobody asks about run none of it. scripts/copy-extension-assets.mjs bundles it into the build.
 * Each frame answers for its own document; a second injection into the same frame (the panel asks again) finds the
 * first one's listener in place and adds nothing.
 */
import { blobToDataUrl } from "./data-url"
import { showImage, viewportDistances } from "./image-places"
import { pageQuietMs, watchPageActivity } from "./page-activity"
import { createImageWatcher, type ImageWatcher } from "./image-watcher"
import { throttleLatest } from "./page-timing"
import { listenForMessages, messageRoute } from "../messaging/message-dispatch"
import { installPageIndex } from "./page-index-global"
import { isOwnPanelOrContextOutsideTabs } from "../messaging/message-senders"
import {
  MAX_PAGE_BLOB_BYTES,
  PAGE_ACTIVITY_REQUEST,
  PAGE_IMAGE_ORDER_REQUEST,
  PAGE_IMAGES_CHANGED,
  PAGE_IMAGES_REQUEST,
  pageActivityRequest,
  pageImageOrderRequest,
  pageImagesRequest,
  READ_PAGE_BLOB_REQUEST,
  readPageBlobRequest,
  SHOW_IMAGE_ON_PAGE,
  showImageOnPage,
  type PageActivityResponse,
  type PageImageOrderResponse,
  type PageImagesChanged,
  type PageImagesResponse,
  type ReadPageBlobResponse,
  type ShowImageOnPageResponse
} from "../messaging/messages"

/** At most one PAGE_IMAGES_CHANGED a second per frame. */
const CHANGE_INTERVAL_MS = 1000

let watcher: ImageWatcher | null = null

const announceChange = throttleLatest((count: number) => {
  const message: PageImagesChanged = { type: PAGE_IMAGES_CHANGED, count }
  try {
    // Nobody listening (no side panel open) rejects: that is fine.
    chrome.runtime.sendMessage(message).catch(() => {})
  } catch {
    // The extension was reloaded or removed: this content script is orphaned.
    announceChange.cancel()
    watcher?.stop()
  }
}, CHANGE_INTERVAL_MS)

/**
 * The index starts with the first request, so pages nobody asks about pay nothing; from then on
 * it follows the page's changes and announces them. Each frame answers for its own document.
 */
function pageWatcher(): ImageWatcher {
  watcher ??= createImageWatcher({ onChange: announceChange }).start()
  return watcher
}

/** The bytes of one of this page's blob: images, for the side panel (which cannot read the page's blobs). */
async function readPageBlob(url: string): Promise<ReadPageBlobResponse> {
  try {
    const blob = await (await fetch(url)).blob()
    if (blob.size > MAX_PAGE_BLOB_BYTES) return { error: "The image is too large to analyse." }
    return { dataUrl: await blobToDataUrl(blob) }
  } catch {
    return { error: "The page no longer holds this image. Reload the page and try again." }
  }
}

// Set on the isolated world's global object by the first injection into a frame, which alone listens. Requests come
// only from the extension's own pages (the side panel), never from another content script.
if (installPageIndex({ elements: () => pageWatcher().elements() })) {
  listenForMessages(chrome.runtime.onMessage, {
    [PAGE_IMAGES_REQUEST]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: pageImagesRequest.parse,
      handle: (): PageImagesResponse => ({ images: pageWatcher().images() })
    }),
    [READ_PAGE_BLOB_REQUEST]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: readPageBlobRequest.parse,
      handle: ({ message }) => readPageBlob(message.url)
    }),
    [PAGE_IMAGE_ORDER_REQUEST]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: pageImageOrderRequest.parse,
      handle: (): PageImageOrderResponse => {
        // Reading has begun: from now on the page's activity tells it when to wait.
        watchPageActivity()
        return { images: viewportDistances(pageWatcher().elements()) }
      }
    }),
    [PAGE_ACTIVITY_REQUEST]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: pageActivityRequest.parse,
      handle: (): PageActivityResponse => ({ quietMs: pageQuietMs() })
    }),
    [SHOW_IMAGE_ON_PAGE]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: showImageOnPage.parse,
      handle: ({ message }): ShowImageOnPageResponse => {
        const element = pageWatcher().elements().get(message.url)
        if (element) showImage(element)
        return { shown: Boolean(element) }
      }
    })
  })
}
