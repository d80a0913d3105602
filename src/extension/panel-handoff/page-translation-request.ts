/**
 * A request to translate the images of a tab's page, from outside the panel: the page's menu entry and the keyboard
 * command (the service worker) and the toolbar popup's button. Each opens the panel first (inside the gesture, before
 * anything is awaited), then stores the request; the panel of that window picks it up when it starts or at once when
 * it is open, and acts on the tab (panel/page-translation/use-page-translation.ts). As selected-image.ts does for an
 * image.
 */
import * as z from "zod"

import { firefoxSidebar, openPanel } from "../browser/side-panel"
import { sessionItem } from "../storage/storage-item"

/** The command's name everywhere: the panel's toggle, the popup's button, the page's menu entry (and the manifest's command). */
export const TRANSLATE_PAGE_LABEL = "Translate images on this page"

const pageTranslationRequestSchema = z.object({
  tabId: z.number().int(),
  /** The window whose panel acts on it. */
  windowId: z.number().int(),
  /** "toggle": the command (on, then originals and back); "on": the popup's button, which turns it on. */
  action: z.enum(["toggle", "on"]),
  /** Milliseconds since the epoch: a request older than the panel's start is not acted on. */
  requestedAt: z.number()
})

export type PageTranslationRequest = z.infer<typeof pageTranslationRequestSchema>

export const pageTranslationRequestItem = sessionItem("pageTranslationRequest", pageTranslationRequestSchema)

/** The request a panel just started still acts on (the entry points store it as the panel opens). */
export const PENDING_PAGE_TRANSLATION_MAX_AGE_MS = 60_000

/**
 * The menu entry and the keyboard command, from the service worker: call it synchronously from their listener, which
 * carries the user's gesture (a user action in Firefox too, where the sidebar then opens).
 */
export function requestPageTranslation(tab: Pick<chrome.tabs.Tab, "id" | "windowId"> | undefined, action: PageTranslationRequest["action"] = "toggle"): Promise<void> {
  if (tab?.id === undefined) return Promise.resolve()
  const opened = openPanel({ tabId: tab.id }).catch((error: unknown) => console.warn("Could not open the side panel", error))
  const stored = pageTranslationRequestItem.set({ tabId: tab.id, windowId: tab.windowId, action, requestedAt: Date.now() })
  return Promise.all([opened, stored]).then(() => undefined)
}

/**
 * The popup's button: opens the panel in the popup's window (Firefox's sidebar before anything is awaited, Chrome's
 * after one question, as the popup's *Open side panel* does) and asks it to turn the mode on for that window's tab.
 */
export async function translateActiveTabFromPopup(): Promise<void> {
  let opened: Promise<void>
  if (firefoxSidebar()) opened = openPanel({ windowId: chrome.windows.WINDOW_ID_CURRENT })
  else {
    const window = await chrome.windows.getCurrent()
    if (window.id === undefined) return
    opened = openPanel({ windowId: window.id })
  }
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true })
  if (tab?.id !== undefined) await pageTranslationRequestItem.set({ tabId: tab.id, windowId: tab.windowId, action: "on", requestedAt: Date.now() })
  await opened
}
