/**
 * The page translation script (PAGE_TRANSLATION_FILE), injected by the side panel into a tab's frames while the mode
 * *Translate images on this page* is on, never declared as a content script: pages without the mode run none of it
 * (scripts/copy-extension-assets.mjs bundles it, React included). Each frame draws the translations of its own images;
 * the top frame also draws the badge. A second injection into the same frame finds the first one's listener in place.
 */
import { extensionSuccessAnswer } from "~core/protocol"

import { listenForMessages, messageRoute } from "../messaging/message-dispatch"
import { isOwnPanelOrContextOutsideTabs } from "../messaging/message-senders"
import { pageIndexOf } from "../in-page/page-index-global"
import {
  PAGE_TRANSLATION_ACTION,
  PAGE_TRANSLATION_CLEAR,
  PAGE_TRANSLATION_SHOW,
  PAGE_TRANSLATION_STATE,
  pageTranslationClear,
  pageTranslationShow,
  pageTranslationState,
  type PageTranslationAction,
  type PageTranslationActionKind,
  type PageTranslationShowResponse
} from "../messaging/page-translation-messages"
import { PageTranslation } from "./page-translation"

const INSTALLED = "__imageQueryAiPageTranslation"
const world = globalThis as typeof globalThis & { [INSTALLED]?: true }

function send(action: PageTranslationActionKind) {
  const message: PageTranslationAction = { type: PAGE_TRANSLATION_ACTION, action }
  try {
    // No panel listening (it closed) rejects: the mode is off then, and its CLEAR is on its way or came.
    chrome.runtime.sendMessage(message).catch(() => {})
  } catch {
    // The extension was reloaded or removed: this script is orphaned.
  }
}

if (!world[INSTALLED]) {
  world[INSTALLED] = true
  const page = new PageTranslation({
    document,
    isTop: window.top === window,
    elements: () => pageIndexOf()?.elements() ?? null,
    send
  })
  // Only the extension's own side panel (or a context of ours outside tabs) tells a page what to show.
  listenForMessages(chrome.runtime.onMessage, {
    [PAGE_TRANSLATION_SHOW]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: pageTranslationShow.parse,
      handle: ({ message }): PageTranslationShowResponse => ({ shown: page.show(message.url, message.translation) })
    }),
    [PAGE_TRANSLATION_STATE]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: pageTranslationState.parse,
      handle: ({ message }) => {
        page.setState(message)
        return extensionSuccessAnswer()
      }
    }),
    [PAGE_TRANSLATION_CLEAR]: messageRoute({
      from: isOwnPanelOrContextOutsideTabs,
      check: pageTranslationClear.parse,
      handle: () => {
        page.clear()
        return extensionSuccessAnswer()
      }
    })
  })
}
