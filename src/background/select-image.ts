import { isAnalysableImageUrl } from "~extension/in-page/image-url"
import type { ImageRequest } from "~extension/messaging/messages"
import { selectedImageItem } from "~extension/panel-handoff/selected-image"
import { openPanel } from "~extension/browser/side-panel"

/**
 * Opens the side panel on the tab and selects the image there: the one path shared by the
 * context-menu entry and the on-image button.
 *
 * Call it synchronously from the event that carries the user's gesture (contextMenus.onClicked,
 * or runtime.onMessage for the button's message): opening the panel is refused once anything
 * has been awaited. It is therefore the first thing done here, before the selection is written;
 * the side panel reads the selection on load and follows later changes of it.
 */
export function openSidePanelWithImage({ url, tabId, pageUrl, action }: ImageRequest): Promise<void> {
  const opened = openPanel({ tabId }).catch((error: unknown) => console.warn("Could not open the side panel", error))
  if (!isAnalysableImageUrl(url)) {
    // The panel still opens (the user asked for it) but cannot hold this image.
    console.warn("Image Query AI cannot select this image: its address is not an http, https, blob or data:image URL of at most 4 MB")
    return opened
  }
  const stored = selectedImageItem.set({ url, tabId, pageUrl, ...(action ? { action } : {}), selectedAt: Date.now() })
  return Promise.all([opened, stored]).then(() => undefined)
}
