/**
 * The page translation's one element in a frame's document: a host of our own, the last child of <html>, styled
 * inline with !important (which beats every page rule, so the page can neither hide, move nor restyle it) and holding
 * everything in a closed shadow root, which page scripts cannot reach and page styles do not cross (`all: initial` on
 * the host cuts inheritance). Nothing else of the page's DOM is touched.
 *
 * Unlike the on-image button's fixed host, this one is placed at the document's corner (position: absolute), so the
 * overlays scroll with the document; its z-index stays auto, so that it makes no stacking context of its own and each
 * overlay stacks in the page's root stacking context just above its own image (element-geometry.ts).
 */
import { flushSync } from "react-dom"
import { createRoot, type Root } from "react-dom/client"

import type { PageTranslationActionKind } from "../messaging/page-translation-messages"
import { createOwnHost, importantStyle } from "../in-page/own-nodes"
import { OverlayTracker, type PageChange } from "./overlay-tracker"
import { BADGE_CSS, PageTranslationView, type ViewState } from "./PageTranslationView"

export const TRANSLATION_HOST_TAG = "image-query-ai-translation"

export const TRANSLATION_HOST_STYLE = importantStyle([
  "all: initial",
  "display: block",
  "position: absolute",
  "top: 0",
  "left: 0",
  "width: 0",
  "height: 0",
  "margin: 0",
  "padding: 0",
  "border: 0",
  "overflow: visible",
  "z-index: auto",
  "transform: none",
  "pointer-events: none"
])

export interface Surface {
  render(state: ViewState): void
  destroy(): void
}

export function createSurface(document: Document, handlers: { onAction(action: PageTranslationActionKind): void; onChange(change: PageChange): void }): Surface {
  const { host, shadow } = createOwnHost(document, TRANSLATION_HOST_TAG, TRANSLATION_HOST_STYLE, BADGE_CSS)
  const container = document.createElement("div")
  shadow.append(container)
  document.documentElement.append(host)
  const tracker = new OverlayTracker({ host, view: document.defaultView ?? window, onChange: handlers.onChange })
  const root: Root = createRoot(container)
  return {
    render(state) {
      // A page that rewrote its document's children took the host with them.
      if (!host.isConnected) document.documentElement.append(host)
      if (!state.showing) tracker.pause()
      // At once, so that the boxes are placed before the browser paints them.
      flushSync(() => root.render(<PageTranslationView state={state} tracker={tracker} onAction={handlers.onAction} />))
      if (state.showing) tracker.resume()
    },
    destroy() {
      tracker.stop()
      root.unmount()
      host.remove()
    }
  }
}
