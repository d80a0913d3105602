import type { PlasmoCSConfig } from "plasmo"

import { ImageButton } from "~extension/in-page/image-button"
// Types only: the message module (its checks and the protocol) stays out of the script every frame of every page runs.
import type { OpenSidePanelForImage } from "~extension/messaging/messages"

export const config: PlasmoCSConfig = {
  matches: ["<all_urls>"],
  all_frames: true,
  run_at: "document_idle"
}

const button = new ImageButton({
  onActivate({ url, action }) {
    const message: OpenSidePanelForImage = { type: "OPEN_SIDE_PANEL_FOR_IMAGE", url, action }
    try {
      // Sent inside the click: the service worker opens the side panel with this user gesture.
      chrome.runtime.sendMessage(message).catch(() => {})
    } catch {
      // The extension was reloaded or removed: this content script is orphaned.
      button.stop()
    }
  }
}).start()
