// @vitest-environment node
import { describe, expect, it } from "vitest"

import {
  INVALID_IMAGE_URL_ERROR,
  isAnalysableImageUrl,
  MAX_IMAGE_URL_LENGTH,
  NOT_OUR_CONTENT_SCRIPT_ERROR,
  OPEN_SIDE_PANEL_FOR_IMAGE,
  parseOpenSidePanelForImage,
  type ImageMessageSender
} from "./messages"

const EXTENSION_ID = "ffaglifbbggnijgmaboakodgdepojdjj"
const contentScript: ImageMessageSender = {
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
    expect(isAnalysableImageUrl(prefix + "A".repeat(MAX_IMAGE_URL_LENGTH - prefix.length))).toBe(true)
    expect(isAnalysableImageUrl(prefix + "A".repeat(MAX_IMAGE_URL_LENGTH - prefix.length + 1))).toBe(false)
    expect(isAnalysableImageUrl(`https://example.com/${"a".repeat(MAX_IMAGE_URL_LENGTH)}`)).toBe(false)
  })
})

describe("the OPEN_SIDE_PANEL_FOR_IMAGE message", () => {
  it("gives the image, the sender's tab and its page (the top page, as the context menu does)", () => {
    expect(parseOpenSidePanelForImage(message("https://example.com/a.png"), contentScript, EXTENSION_ID)).toEqual({
      ok: true,
      request: { url: "https://example.com/a.png", tabId: 42, pageUrl: "https://example.com/gallery" }
    })
  })

  it.each<[string, ImageMessageSender]>([
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
