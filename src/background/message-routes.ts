/**
 * Every message the service worker answers, by type, with who may send it: one table for chrome.runtime.onMessage
 * (our content scripts and pages, and the site rendered in our own tab page) and one for onMessageExternal (the
 * site on the web), registered once.
 */
import { WEBSITE_AUTH_LOGIN, WEBSITE_AUTH_LOGOUT, WEBSITE_AUTH_SYNC, WEBSITE_MESSAGE_PREFIX } from "~core/extension-messages"
import { extensionSuccessAnswer } from "~core/protocol"
import { listenForMessages, messageRoute, type MessageRoutes } from "~extension/messaging/message-dispatch"
import { isOurContentScript, isOwnExtensionPage } from "~extension/messaging/message-senders"
import {
  CANCEL_AREA_CAPTURE,
  cancelAreaCapture as cancelAreaCaptureMessage,
  CAPTURE_WHOLE_VIEW,
  captureWholeView as captureWholeViewMessage,
  NOT_OUR_CONTENT_SCRIPT_ERROR,
  OPEN_SIDE_PANEL_FOR_IMAGE,
  parseOpenSidePanelForImage,
  SIGN_OUT_REQUEST,
  signOutRequest,
  START_AREA_CAPTURE,
  startAreaCapture
} from "~extension/messaging/messages"

import { cancelAreaCapture, captureArea, captureWholeView } from "./area-capture"
import { openSidePanelWithImage } from "./select-image"
import { signOutEverywhere } from "./site-link"
import { siteMessageRoute } from "./site-messages"

const siteRoute = siteMessageRoute()

const siteRoutes: MessageRoutes = {
  [WEBSITE_AUTH_LOGIN]: siteRoute,
  [WEBSITE_AUTH_SYNC]: siteRoute,
  [WEBSITE_AUTH_LOGOUT]: siteRoute
}

const internalRoutes: MessageRoutes = {
  // The on-image button. The side panel is opened before anything is awaited, inside the click's gesture.
  [OPEN_SIDE_PANEL_FOR_IMAGE]: messageRoute({
    from: isOurContentScript,
    refusal: NOT_OUR_CONTENT_SCRIPT_ERROR,
    check: parseOpenSidePanelForImage,
    handle({ request }) {
      void openSidePanelWithImage(request)
      return extensionSuccessAnswer()
    }
  }),
  // The side panel's "Capture area" button; the outcome reaches the panel through areaCaptureItem.
  [START_AREA_CAPTURE]: messageRoute({
    from: isOwnExtensionPage,
    check: startAreaCapture.parse,
    handle({ message }) {
      void captureArea(message.tabId)
      return extensionSuccessAnswer()
    }
  }),
  [CANCEL_AREA_CAPTURE]: messageRoute({
    from: isOwnExtensionPage,
    check: cancelAreaCaptureMessage.parse,
    handle: ({ message }) => cancelAreaCapture(message.tabId).then(extensionSuccessAnswer)
  }),
  [CAPTURE_WHOLE_VIEW]: messageRoute({
    from: isOwnExtensionPage,
    check: captureWholeViewMessage.parse,
    handle: ({ message }) => captureWholeView(message.tabId).then(extensionSuccessAnswer)
  }),
  [SIGN_OUT_REQUEST]: messageRoute({
    from: isOwnExtensionPage,
    check: signOutRequest.parse,
    handle: () => signOutEverywhere().then(extensionSuccessAnswer)
  }),
  ...siteRoutes
}

export function listenToMessages(runtime: typeof chrome.runtime = chrome.runtime): void {
  // Any other WEBSITE_* type is the site's too: its route answers it (an unknown type is an error in words).
  listenForMessages(runtime.onMessage, internalRoutes, {
    unrouted: (type) => (typeof type === "string" && type.startsWith(WEBSITE_MESSAGE_PREFIX) ? siteRoute : undefined)
  })
  // Only the site's pages can reach onMessageExternal (externally_connectable): every message there is the site's.
  listenForMessages(runtime.onMessageExternal, siteRoutes, { unrouted: () => siteRoute })
}
