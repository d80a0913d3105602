import { REVERSE_SEARCH_ENGINES, reverseSearchEngine } from "~core/analysis/reverse-search"
import { sealOpenSession } from "~extension/account/extension-session"
import { requestPageTranslation, TRANSLATE_PAGE_LABEL } from "~extension/panel-handoff/page-translation-request"
import { openReverseSearch } from "~extension/reverse-search/reverse-search"
import { firefoxSidebar } from "~extension/browser/side-panel"

import { captureAreaFromGesture } from "./area-capture"
import { listenToMessages } from "./message-routes"
import { openSidePanelWithImage } from "./select-image"
import { sidePanelToggle } from "./side-panel-toggle"
import { listenToSiteLinks } from "./site-link"

export const ANALYSE_IMAGE_MENU_ID = "analyse-image"
export const TRANSLATE_IMAGE_MENU_ID = "translate-image"
export const CAPTURE_AREA_MENU_ID = "capture-area"
export const REVERSE_SEARCH_MENU_ID = "reverse-search"
export const TRANSLATE_PAGE_MENU_ID = "translate-page"
/** The entries under "Search the web for this image", one per engine: `reverse-search:<engine id>`. */
const REVERSE_SEARCH_ENTRY_PREFIX = `${REVERSE_SEARCH_MENU_ID}:`
/** The manifest's commands (package.json "manifest.commands"). */
export const CAPTURE_AREA_COMMAND = "capture-area"
export const TOGGLE_SIDE_PANEL_COMMAND = "toggle-side-panel"
export const TRANSLATE_PAGE_COMMAND = "translate-page"

function registerContextMenu() {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({
      id: ANALYSE_IMAGE_MENU_ID,
      title: "Analyse image",
      contexts: ["image"]
    })
    chrome.contextMenus.create({ id: TRANSLATE_IMAGE_MENU_ID, title: "Translate image", contexts: ["image"] })
    chrome.contextMenus.create({
      id: CAPTURE_AREA_MENU_ID,
      title: "Capture an area to analyse",
      // Every context of a page, not the extension's own button.
      contexts: ["page", "frame", "selection", "link", "editable", "image", "video", "audio"]
    })
    chrome.contextMenus.create({
      id: TRANSLATE_PAGE_MENU_ID,
      title: TRANSLATE_PAGE_LABEL,
      contexts: ["page", "frame", "selection", "link", "editable", "image", "video", "audio"]
    })
    chrome.contextMenus.create({ id: REVERSE_SEARCH_MENU_ID, title: "Search the web for this image", contexts: ["image"] })
    for (const engine of REVERSE_SEARCH_ENGINES) {
      chrome.contextMenus.create({ id: `${REVERSE_SEARCH_ENTRY_PREFIX}${engine.id}`, parentId: REVERSE_SEARCH_MENU_ID, title: engine.name, contexts: ["image"] })
    }
  })
}

chrome.runtime.onInstalled.addListener(registerContextMenu)
// Firefox: a session kept by a version before sealing is sealed now (a no-op in Chrome, where it is never sealed).
chrome.runtime.onInstalled.addListener(({ reason }) => {
  if (reason === "update") void sealOpenSession().catch((error: unknown) => console.warn("Could not seal the stored session", error))
})
chrome.runtime.onStartup.addListener(registerContextMenu)

chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === CAPTURE_AREA_MENU_ID) {
    void captureAreaFromGesture(tab)
    return
  }
  // The panel opens inside the menu's gesture and toggles the mode for the tab (on, then originals and back).
  if (info.menuItemId === TRANSLATE_PAGE_MENU_ID) {
    void requestPageTranslation(tab)
    return
  }
  const engine = String(info.menuItemId).startsWith(REVERSE_SEARCH_ENTRY_PREFIX) && reverseSearchEngine(String(info.menuItemId).slice(REVERSE_SEARCH_ENTRY_PREFIX.length))
  if (engine && info.srcUrl) {
    const openerTab = tab && tab.index >= 0 ? tab : undefined
    void openReverseSearch({ engine: engine.id, url: info.srcUrl, tabId: tab?.id, frameId: info.frameId, openerTab }).catch((error: unknown) =>
      console.warn("Could not open the web search for the image", error)
    )
    return
  }
  const action = info.menuItemId === ANALYSE_IMAGE_MENU_ID ? "analyse" : info.menuItemId === TRANSLATE_IMAGE_MENU_ID ? "translate" : null
  if (!action || tab?.id === undefined || !info.srcUrl) return
  void openSidePanelWithImage({ url: info.srcUrl, tabId: tab.id, pageUrl: info.pageUrl, action })
})

// Firefox toggles its sidebar itself; Chrome's side panel needs the open windows tracked (side-panel-toggle.ts).
const sidebar = firefoxSidebar()
const toggleSidePanel = sidebar ? () => sidebar.toggle() : sidePanelToggle()

chrome.commands.onCommand.addListener((command, tab) => {
  if (command === CAPTURE_AREA_COMMAND) void captureAreaFromGesture(tab)
  else if (command === TRANSLATE_PAGE_COMMAND) void requestPageTranslation(tab)
  else if (command === TOGGLE_SIDE_PANEL_COMMAND && tab?.windowId !== undefined) void toggleSidePanel(tab.windowId)
})

// The on-image button, our pages' sign-out and the companion site's sign-in, sync and logout messages.
listenToMessages()
// Requests to the site (status, logout) over the ports its pages open.
listenToSiteLinks()
// Tokens live in chrome.storage.local: keep content scripts (which run inside web pages) away from it. Firefox has no
// such setting (its content scripts always reach storage.local): there the session is sealed (~extension/sealed-item).
void chrome.storage.local
  .setAccessLevel?.({ accessLevel: "TRUSTED_CONTEXTS" })
  ?.catch((error: unknown) => console.warn("Could not restrict chrome.storage.local to the extension", error))
