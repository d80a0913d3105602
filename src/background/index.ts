import { listenToMessages } from "./message-routes"
import { openSidePanelWithImage } from "./select-image"
import { listenToSiteLinks } from "./site-link"

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

// The on-image button, our pages' sign-out and the companion site's sign-in, sync and logout messages.
listenToMessages()
// Requests to the site (status, logout) over the ports its pages open.
listenToSiteLinks()
// Tokens live in chrome.storage.local: keep content scripts (which run inside web pages) away from it.
void chrome.storage.local
  .setAccessLevel({ accessLevel: "TRUSTED_CONTEXTS" })
  .catch((error: unknown) => console.warn("Could not restrict chrome.storage.local to the extension", error))
