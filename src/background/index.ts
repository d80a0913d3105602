import { SELECTED_IMAGE_KEY, type SelectedImage } from "~extension/messages"

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
  // sidePanel.open must run synchronously in the click handler: awaiting first loses the user gesture.
  chrome.sidePanel.open({ tabId: tab.id }).catch((error: unknown) => console.warn("Could not open the side panel", error))
  const selected: SelectedImage = { url: info.srcUrl, tabId: tab.id, pageUrl: info.pageUrl, selectedAt: Date.now() }
  void chrome.storage.session.set({ [SELECTED_IMAGE_KEY]: selected })
})

// The companion site's sign-in, sync and logout messages (externally_connectable).
listenToSiteMessages()
// Requests to the site (status, logout) over the ports its pages open.
listenToSiteLinks()
// Tokens live in chrome.storage.local: keep content scripts (which run inside web pages) away from it.
void chrome.storage.local
  .setAccessLevel({ accessLevel: "TRUSTED_CONTEXTS" })
  .catch((error: unknown) => console.warn("Could not restrict chrome.storage.local to the extension", error))
