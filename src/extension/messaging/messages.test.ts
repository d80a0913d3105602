// @vitest-environment node
import { describe, expect, it } from "vitest"

import type { MessageSender } from "./message-dispatch"
import {
  INVALID_IMAGE_URL_ERROR,
  NOT_OUR_CONTENT_SCRIPT_ERROR,
  OPEN_SIDE_PANEL_FOR_IMAGE,
  pageImagesChanged,
  pageImagesRequest,
  parseOpenSidePanelForImage,
  readPageBlobRequest,
  signOutRequest
} from "./messages"

const EXTENSION_ID = "ffaglifbbggnijgmaboakodgdepojdjj"
const contentScript: MessageSender = {
  id: EXTENSION_ID,
  url: "https://example.com/gallery/frame.html",
  frameId: 3,
  tab: { id: 42, url: "https://example.com/gallery", windowId: 1 }
}
const message = (url: unknown) => ({ type: OPEN_SIDE_PANEL_FOR_IMAGE, url })

describe("the OPEN_SIDE_PANEL_FOR_IMAGE message", () => {
  it("gives the image, the sender's tab and its page (the top page, as the context menu does)", () => {
    expect(parseOpenSidePanelForImage(message("https://example.com/a.png"), contentScript, EXTENSION_ID)).toEqual({
      ok: true,
      request: { url: "https://example.com/a.png", tabId: 42, pageUrl: "https://example.com/gallery", action: "analyse" }
    })
  })

  it("carries Translate image from the button beside it, and refuses any other action", () => {
    const translate = { ...message("https://example.com/a.png"), action: "translate" }
    expect(parseOpenSidePanelForImage(translate, contentScript, EXTENSION_ID)).toMatchObject({ ok: true, request: { action: "translate" } })
    for (const action of ["delete", 1, null, ""]) {
      expect(parseOpenSidePanelForImage({ ...translate, action }, contentScript, EXTENSION_ID).ok, String(action)).toBe(false)
    }
  })

  it.each<[string, MessageSender]>([
    ["another extension", { ...contentScript, id: "aaaabbbbccccddddeeeeffffgggghhhh" }],
    ["no sender id", { ...contentScript, id: undefined }],
    ["an extension page in a tab", { ...contentScript, url: `chrome-extension://${EXTENSION_ID}/popup.html` }],
    ["an extension page without a tab", { id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/sidepanel.html` }],
    ["no tab", { ...contentScript, tab: undefined }],
    ["a tab without id", { ...contentScript, tab: { url: "https://example.com/" } }],
    ["no frame", { ...contentScript, frameId: undefined }]
  ])("refuses a message from %s", (_name, sender) => {
    expect(parseOpenSidePanelForImage(message("https://example.com/a.png"), sender, EXTENSION_ID)).toEqual({
      ok: false,
      error: NOT_OUR_CONTENT_SCRIPT_ERROR
    })
  })

  it("refuses a URL that is no image address", () => {
    for (const url of ["javascript:alert(1)", undefined, { href: "https://example.com/a.png" }]) {
      expect(parseOpenSidePanelForImage(message(url), contentScript, EXTENSION_ID)).toEqual({ ok: false, error: INVALID_IMAGE_URL_ERROR })
    }
  })

  it("refuses other messages", () => {
    expect(parseOpenSidePanelForImage({ type: "PAGE_IMAGES_REQUEST" }, contentScript, EXTENSION_ID).ok).toBe(false)
    expect(parseOpenSidePanelForImage("OPEN_SIDE_PANEL_FOR_IMAGE", contentScript, EXTENSION_ID).ok).toBe(false)
    expect(parseOpenSidePanelForImage(null, contentScript, EXTENSION_ID).ok).toBe(false)
  })
})

describe("the messages between the side panel and the content scripts", () => {
  it("checks each message by its own schema", () => {
    expect(pageImagesRequest.parse({ type: "PAGE_IMAGES_REQUEST" })).toEqual({ ok: true, message: { type: "PAGE_IMAGES_REQUEST" } })
    expect(pageImagesChanged.is({ type: "PAGE_IMAGES_CHANGED", count: 3 })).toBe(true)
    expect(pageImagesChanged.is({ type: "PAGE_IMAGES_CHANGED", count: "3" })).toBe(false)
    expect(pageImagesChanged.is({ type: "PAGE_IMAGES_CHANGED" })).toBe(false)
    expect(signOutRequest.parse({ type: "SIGN_OUT_REQUEST" }).ok).toBe(true)
    expect(signOutRequest.parse({ type: "PAGE_IMAGES_REQUEST" }).ok).toBe(false)
  })

  it("asks a content script only for the bytes of its page's blob: images", () => {
    const blobUrl = "blob:https://example.com/2f1c7a3e-9d1b-4c55-a2a0-5b1f8a3c1e77"
    expect(readPageBlobRequest.parse({ type: "READ_PAGE_BLOB_REQUEST", url: blobUrl })).toEqual({ ok: true, message: { type: "READ_PAGE_BLOB_REQUEST", url: blobUrl } })
    for (const url of ["https://example.com/a.png", "data:image/png;base64,AA==", undefined]) {
      expect(readPageBlobRequest.parse({ type: "READ_PAGE_BLOB_REQUEST", url }).ok).toBe(false)
    }
  })
})
