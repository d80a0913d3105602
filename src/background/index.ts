import { isOpenSidePanelForImage, parseOpenSidePanelForImage } from "~extension/messages"

import { openSidePanelWithImage } from "./select-image"
import { listenToSiteLinks } from "./site-link"
import { listenToSiteMessages } from "./site-messages"

export const ANALYSE_IMAGE_MENU_ID = "analyse-image"

function registerContextMenu() {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({
      id: ANALYSE_IMAGE_MENU_ID,
      title: "Analyse image",
      contexts: ["image"]
    })
  })
}

chrome.runtime.onInstalled.addListener(registerContextMenu)
chrome.runtime.onStartup.addListener(registerContextMenu)

chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId !== ANALYSE_IMAGE_MENU_ID || tab?.id === undefined || !info.srcUrl) return
  void openSidePanelWithImage({ url: info.srcUrl, tabId: tab.id, pageUrl: info.pageUrl })
})

// The on-image button's content script. The answer is synchronous: returning true (to answer
// later) is not needed, and the side panel must be opened before anything is awaited.
chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse: (answer: { success: boolean; error?: string }) => void) => {
  if (!isOpenSidePanelForImage(message)) return false
  const parsed = parseOpenSidePanelForImage(message, sender, chrome.runtime.id)
  if (!parsed.ok) {
    sendResponse({ success: false, error: parsed.error })
    return false
  }
  void openSidePanelWithImage(parsed.request)
  sendResponse({ success: true })
  return false
})

// The companion site's sign-in, sync and logout messages (externally_connectable).
listenToSiteMessages()
// Requests to the site (status, logout) over the ports its pages open.
listenToSiteLinks()
// Tokens live in chrome.storage.local: keep content scripts (which run inside web pages) away from it.
void chrome.storage.local
  .setAccessLevel({ accessLevel: "TRUSTED_CONTEXTS" })
  .catch((error: unknown) => console.warn("Could not restrict chrome.storage.local to the extension", error))
