/**
 * Who may send what: the sender rules of the extension's message routes. Chrome fills in the sender of every
 * message, so these read only what the page cannot forge (the extension id, the frame's URL, its tab).
 */
import type { MessageSender } from "./message-dispatch"

type RuntimeIdentity = Pick<typeof chrome.runtime, "id" | "getURL">

/** A sender the extension's content script rule accepted: it has a tab, and so the page the message is about. */
export type ContentScriptSender = MessageSender & { tab: { id: number; url?: string } }

/**
 * Our own content script in a web page's frame: sent by this extension, from a tab, from a frame whose URL is not
 * the extension's (our own pages have extension URLs, and no tab when not opened in one).
 */
export function isOurContentScript(sender: MessageSender, extensionId: string = chrome.runtime.id): sender is ContentScriptSender {
  const tabId = sender.tab?.id
  // An extension page (ours in Chrome or Firefox, whose pages are moz-extension://) is not a web page.
  const fromWebPage = typeof sender.url === "string" && !/^(chrome|moz)-extension:/.test(sender.url) && typeof sender.frameId === "number"
  return sender.id === extensionId && typeof tabId === "number" && tabId >= 0 && fromWebPage
}

/**
 * The top-level frame of a page the person has open. Both browsers give frameId 0 only to a tab's top frame (frames
 * have others, as do Chrome's prerendered and fenced pages); Chrome also tells the document's lifecycle, and anything but
 * "active" (prerendering, kept in the back/forward cache, being unloaded) is not the page the person sees.
 */
export function isTopFrame(sender: Pick<MessageSender, "frameId" | "documentLifecycle"> | undefined): boolean {
  return sender?.frameId === 0 && (sender.documentLifecycle === undefined || sender.documentLifecycle === "active")
}

/** A page of the extension itself (popup, side panel, tab pages); content scripts run in web pages and are not. */
export function isOwnExtensionPage(sender: MessageSender | undefined, runtime: RuntimeIdentity = chrome.runtime, page = ""): boolean {
  return Boolean(sender && sender.id === runtime.id && sender.url?.startsWith(runtime.getURL(page)))
}

/**
 * The extension itself, outside any tab: the side panel, the popup or the service worker, and in Firefox the panel
 * shown in a window of its own (see ../browser/side-panel), which is our panel page in a tab. What a content script
 * answers to: never another content script, nor another of our pages opened in a tab.
 */
export function isOwnPanelOrContextOutsideTabs(sender: MessageSender, runtime: RuntimeIdentity = chrome.runtime): boolean {
  return sender.id === runtime.id && (!sender.tab || isOwnExtensionPage(sender, runtime, "sidepanel.html"))
}

/** The site rendered inside the extension (tabs/site.html) is one of our own pages. */
export function isOwnSitePage(sender: MessageSender | undefined, runtime: RuntimeIdentity = chrome.runtime): boolean {
  return isOwnExtensionPage(sender, runtime, "tabs/site.html")
}
