// @vitest-environment node
import { describe, expect, it } from "vitest"

import type { MessageSender } from "./message-dispatch"
import {
  INVALID_IMAGE_URL_ERROR,
  isAnalysableImageUrl,
  MAX_PICKED_IMAGE_URL_LENGTH,
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

describe("image URLs the extension accepts", () => {
  it.each([
    "https://example.com/a.png",
    "http://127.0.0.1:8080/photo.jpg?size=large#x",
    "blob:https://example.com/2f1c7a3e-9d1b-4c55-a2a0-5b1f8a3c1e77",
    "data:image/png;base64,iVBORw0KGgo=",
    "data:image/svg+xml,%3Csvg%3E%3C/svg%3E"
  ])("accepts %s", (url) => {
    expect(isAnalysableImageUrl(url)).toBe(true)
  })

  it.each([
    ["javascript", "javascript:alert(1)"],
    ["file", "file:///etc/passwd"],
    ["extension", "chrome-extension://abc/icon.png"],
    ["non-image data", "data:text/html,<script>alert(1)</script>"],
    ["relative", "/a.png"],
    ["empty", ""],
    ["not a string", 42],
    ["null", null]
  ])("refuses a %s URL", (_name, url) => {
    expect(isAnalysableImageUrl(url)).toBe(false)
  })

  it("bounds the length, data: URLs included", () => {
    const prefix = "data:image/png;base64,"
    expect(isAnalysableImageUrl(prefix + "A".repeat(MAX_PICKED_IMAGE_URL_LENGTH - prefix.length))).toBe(true)
    expect(isAnalysableImageUrl(prefix + "A".repeat(MAX_PICKED_IMAGE_URL_LENGTH - prefix.length + 1))).toBe(false)
    expect(isAnalysableImageUrl(`https://example.com/${"a".repeat(MAX_PICKED_IMAGE_URL_LENGTH)}`)).toBe(false)
  })
})

describe("the OPEN_SIDE_PANEL_FOR_IMAGE message", () => {
  it("gives the image, the sender's tab and its page (the top page, as the context menu does)", () => {
    expect(parseOpenSidePanelForImage(message("https://example.com/a.png"), contentScript, EXTENSION_ID)).toEqual({
      ok: true,
      request: { url: "https://example.com/a.png", tabId: 42, pageUrl: "https://example.com/gallery" }
    })
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
