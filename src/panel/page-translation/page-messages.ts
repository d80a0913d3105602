/**
 * The panel's side of the messages of page-translation-messages.ts: the page translation script injected into a
 * tab's frames when the mode turns on (as page-frames.ts injects the page index, never declared as a content script),
 * the state to every frame, each translation to the frame that listed its image, the clearing; and whose badge may
 * ask for something (our script, in the top frame of a tab).
 */
import { isOurContentScript, isTopFrame, type ContentScriptSender } from "~extension/messaging/message-senders"
import type { MessageSender } from "~extension/messaging/message-dispatch"
import {
  PAGE_TRANSLATION_CLEAR,
  PAGE_TRANSLATION_FILE,
  PAGE_TRANSLATION_SHOW,
  PAGE_TRANSLATION_STATE,
  type PageImageTranslation,
  type PageTranslationClear,
  type PageTranslationShow,
  type PageTranslationState
} from "~extension/messaging/page-translation-messages"

import { indexTabFrames } from "../images/page-frames"
import type { PageState } from "./tab-translation"

/** The page index (the images, their places, the page's activity) and the page translation script, in every frame. */
export async function preparePage(tabId: number): Promise<void> {
  const frames = await indexTabFrames(tabId)
  if (!frames.length) throw new Error("This tab cannot be scripted")
  await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: [PAGE_TRANSLATION_FILE] })
}

/** To every frame (no frameId): the top frame draws the badge, each frame shows or hides its overlays. */
export function sendPageState(tabId: number, state: PageState): void {
  const { showing, status, done, total, message: words, upgradeUrl } = state
  const message: PageTranslationState = { type: PAGE_TRANSLATION_STATE, showing, status, done, total, message: words, upgradeUrl }
  chrome.tabs.sendMessage(tabId, message).catch(() => {})
}

export function clearPage(tabId: number): void {
  const message: PageTranslationClear = { type: PAGE_TRANSLATION_CLEAR }
  chrome.tabs.sendMessage(tabId, message).catch(() => {})
}

/**
 * The translation to the frame whose page index listed the image. A frame without the script (added after the mode
 * turned on) gets it, and the translation again.
 */
export async function showTranslation(tabId: number, { url, frameId = 0 }: { url: string; frameId?: number }, translation: PageImageTranslation): Promise<void> {
  const message: PageTranslationShow = { type: PAGE_TRANSLATION_SHOW, url, translation }
  try {
    await chrome.tabs.sendMessage(tabId, message, { frameId })
  } catch {
    try {
      await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: [PAGE_TRANSLATION_FILE] })
      await chrome.tabs.sendMessage(tabId, message, { frameId })
    } catch {
      // The frame is gone (or cannot be scripted): its image is no longer on the page.
    }
  }
}

/** The badge's Stop and Show originals come from our page translation script in the top frame of the tab. */
export const isActionFromTab = (sender: MessageSender): sender is ContentScriptSender => isOurContentScript(sender) && isTopFrame(sender)
