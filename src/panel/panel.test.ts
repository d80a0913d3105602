import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"

import type { OcrResult } from "~analysis/ocr"
import type { PageImage } from "~extension/messaging/messages"
import { createFakeChrome } from "~extension/browser/fake-chrome.test-support"

import { DEFAULT_FACES_OPTIONS } from "~core/analysis/detections"
import { describeFace } from "~analysis/result-format"

import { objectLabels, resultKey, summarise } from "./analyses"
import { apiOriginItem, DEFAULT_API_ORIGIN, parseApiOrigin, PLAIN_HTTP_REFUSED_ERROR } from "~extension/site-link/api-origin"

import { chatHistoryFor, type ChatMessage } from "./chat/use-chat"
import { addToHistory, clearHistory, HISTORY_LIMIT, historyImageUrl, loadHistory } from "./chat/history"
import { filterPanelImages } from "./images/ImagesSection"
import { imageTypeOf, mergeFrameImages, type PanelImage } from "./images/tab-images"
import { DEFAULT_PANEL_SETTINGS, migratePanelSettings, panelSettingsItem } from "./settings/settings"
import { recentHistory } from "./chat/vqa-client"

const image = (url: string, width: number, height: number, mimeType = "image/png"): PageImage => ({
  url,
  width,
  height,
  renderedWidth: width,
  renderedHeight: height,
  alt: "",
  source: "img",
  mimeType
})

describe("mergeFrameImages", () => {
  it("keeps one entry per URL, the first frame to report it, and remembers each image's frame", () => {
    const merged = mergeFrameImages([
      { frameId: 0, images: [image("https://a.test/1.png", 500, 500), image("https://a.test/2.png", 500, 500)] },
      { frameId: 7, images: [image("https://a.test/2.png", 500, 500), image("https://b.test/3.png", 500, 500)] },
      { frameId: 9, images: null }
    ])
    expect(merged?.map(({ url, frameId }) => [url, frameId])).toEqual([
      ["https://a.test/1.png", 0],
      ["https://a.test/2.png", 0],
      ["https://b.test/3.png", 7]
    ])
  })

  it("answers null only when no frame could be asked", () => {
    expect(mergeFrameImages([{ frameId: 0, images: null }])).toBeNull()
    expect(mergeFrameImages([{ frameId: 0, images: [] }])).toEqual([])
  })
})

describe("the grid's filters", () => {
  const images: PanelImage[] = [
    { ...image("t", 1000, 500), frameId: 0 },
    { ...image("l", 1920, 1280, "image/jpeg"), frameId: 0 },
    { ...image("m", 1000, 900, "image/webp"), frameId: 0 },
    { ...image("s", 64, 64, "image/svg+xml"), frameId: 0 },
    { ...image("u", 900, 900, ""), frameId: 0 }
  ]
  const urls = (filters: Parameters<typeof filterPanelImages>[1]) => filterPanelImages(images, filters).map((found) => found.url)

  it("applies the core size rule and 'Hide small images', then the type", () => {
    expect(urls({ size: "any", hideSmall: true, type: "any" })).toEqual(["t", "l", "m", "u"])
    expect(urls({ size: "any", hideSmall: false, type: "any" })).toEqual(["t", "l", "m", "s", "u"])
    expect(urls({ size: "small", hideSmall: true, type: "any" })).toEqual(["t"])
    expect(urls({ size: "small", hideSmall: false, type: "any" })).toEqual(["t", "s"])
    expect(urls({ size: "medium", hideSmall: true, type: "any" })).toEqual(["m", "u"])
    expect(urls({ size: "large", hideSmall: true, type: "any" })).toEqual(["l"])
    expect(urls({ size: "any", hideSmall: false, type: "svg" })).toEqual(["s"])
    expect(urls({ size: "any", hideSmall: true, type: "other" })).toEqual(["u"])
  })

  it("names types from the MIME type, unknown ones as other", () => {
    expect(imageTypeOf({ mimeType: "image/JPEG" })).toBe("jpeg")
    expect(imageTypeOf({ mimeType: "image/jpg" })).toBe("jpeg")
    expect(imageTypeOf({ mimeType: "image/avif" })).toBe("other")
    expect(imageTypeOf({})).toBe("other")
  })
})

describe("settings", () => {
  it("falls back to the default for each unknown or missing field", () => {
    expect(panelSettingsItem.parse(undefined)).toEqual(DEFAULT_PANEL_SETTINGS)
    expect(
      panelSettingsItem.parse({ defaultAnalysis: "faces", model: "gpt-4o", faceAttributes: true, ocrLanguages: ["eng", "hin", "hin"], ocrDetectLanguage: true, questionsEngine: "device" })
    ).toEqual({
      version: 2,
      defaultAnalysis: "faces",
      model: "gpt-4o",
      faceAttributes: true,
      ocrLanguages: ["eng", "hin"],
      ocrDetectLanguage: true,
      ocrKeepLayout: false,
      questionsEngine: "device",
      translationEngine: "auto"
    })
    for (const ocrLanguages of [[], ["eng", "hin", "jpn", "kor"], ["../../etc"], "eng", [3]]) {
      expect(panelSettingsItem.parse({ ocrLanguages }).ocrLanguages).toEqual(["eng"])
    }
    expect(
      panelSettingsItem.parse({ defaultAnalysis: "delete-everything", model: "gpt-9", faceDetector: 3, faceAttributes: "yes", ocrDetectLanguage: "on", ocrKeepLayout: 1, questionsEngine: "gpu", translationEngine: 2 })
    ).toEqual(DEFAULT_PANEL_SETTINGS)
    expect(panelSettingsItem.parse({ defaultAnalysis: "none" }).defaultAnalysis).toBe("none")
  })

  it("drops a stored face detector, the fast one removed or the default, and keeps the rest", () => {
    // The fast detector was removed (issue 47): a stored choice of it, or of the default, must not fail the settings.
    for (const faceDetector of ["tiny", "ssd", 3]) {
      for (const version of [undefined, 2]) {
        const read = panelSettingsItem.parse({ version, defaultAnalysis: "faces", faceDetector, faceAttributes: true })
        expect(read).toEqual({ ...DEFAULT_PANEL_SETTINGS, defaultAnalysis: "faces", faceAttributes: true })
        // Faces run with the faces engine's default detector, whatever was stored.
        expect(DEFAULT_FACES_OPTIONS.detector).toBe("ssd")
        expect(read).not.toHaveProperty("faceDetector")
      }
    }
    expect(migratePanelSettings({ version: 2, faceDetector: "tiny" })).toEqual({ version: 2, faceDetector: "tiny" })
    expect(migratePanelSettings("tiny")).toEqual({})
    expect(migratePanelSettings(null)).toEqual({})
  })

  it("accepts only an http(s) origin as the service address, and says why not", () => {
    expect(parseApiOrigin(" https://imagequery.ai/ ")).toEqual({ ok: true, origin: "https://imagequery.ai" })
    expect(parseApiOrigin("http://127.0.0.1:8787")).toEqual({ ok: true, origin: "http://127.0.0.1:8787" })
    expect(parseApiOrigin("imagequery.ai")).toEqual({ ok: false, error: "Enter an address such as https://imagequery.ai" })
    expect(parseApiOrigin("ftp://imagequery.ai")).toEqual({ ok: false, error: "The address must start with https:// or http://" })
    expect(parseApiOrigin("https://imagequery.ai/api")).toEqual({ ok: false, error: "Enter only the address of the service, without a path" })
    expect(parseApiOrigin("javascript:alert(1)")).toMatchObject({ ok: false })
  })

  it("accepts plain http only for this computer: localhost, 127.0.0.0/8 and [::1]", () => {
    for (const local of ["http://localhost", "http://localhost:8787", "http://127.0.0.1:8787", "http://127.8.9.10", "http://[::1]:8787"]) {
      expect(parseApiOrigin(local)).toEqual({ ok: true, origin: local })
    }
    expect(parseApiOrigin("https://example.com")).toEqual({ ok: true, origin: "https://example.com" })
    for (const remote of ["http://example.com", "http://127.0.0.1.nip.io", "http://localhost.example.com", "http://10.0.0.5:8787", "http://128.0.0.1", "http://[::2]", "http://[::ffff:7f00:1]", "http://0.0.0.0:8787"]) {
      expect(parseApiOrigin(remote)).toEqual({ ok: false, error: PLAIN_HTTP_REFUSED_ERROR })
    }
  })

  it("ignores a stored plain-http address of another computer (written by an older version): the default applies", () => {
    expect(apiOriginItem.parse("http://example.com")).toBe(DEFAULT_API_ORIGIN)
    expect(apiOriginItem.parse("https://example.com")).toBe("https://example.com")
  })
})

describe("analysis results", () => {
  const settings = DEFAULT_PANEL_SETTINGS
  const at = { url: "https://a.test/x.png" }

  it("caches by image, analysis and the options that change the result; never a free question", () => {
    expect(resultKey({ kind: "text", image: at, settings })).toBe(resultKey({ kind: "text", image: at, settings: { ...settings, model: "gpt-4o" } }))
    expect(resultKey({ kind: "faces", image: at, settings })).not.toBe(resultKey({ kind: "faces", image: at, settings: { ...settings, faceAttributes: true } }))
    expect(resultKey({ kind: "scene", image: at, settings })).not.toBe(resultKey({ kind: "scene", image: at, settings: { ...settings, model: "gpt-4o" } }))
    expect(resultKey({ kind: "ask", image: at, settings })).toBeNull()
  })

  it("summarises each kind in one line", () => {
    const ocr = (text: string): OcrResult => ({ text, confidence: 0.9, words: [], lines: [], imageWidth: 100, imageHeight: 100, durationMs: 1 })
    expect(summarise({ kind: "text", ocr: ocr("  IMAGE\nQUERY  ") })).toBe("IMAGE QUERY")
    expect(summarise({ kind: "text", ocr: ocr("") })).toBe("No text found")
    expect(summarise({ kind: "text", ocr: ocr("x".repeat(200)) })).toHaveLength(80)
    const box = { x: 0, y: 0, width: 1, height: 1 }
    expect(summarise({ kind: "faces", faces: { faces: [{ box, score: 1 }], imageWidth: 1, imageHeight: 1, detector: "ssd" } })).toBe("1 face")
    const objects = { objects: [{ label: "dog", score: 0.4, box }, { label: "person", score: 0.9, box }, { label: "dog", score: 0.8, box }], imageWidth: 1, imageHeight: 1 }
    expect(objectLabels(objects)).toEqual(["person", "dog"])
    expect(summarise({ kind: "objects", objects })).toBe("person, dog")
    expect(describeFace({ box, score: 0.923, age: 31.4, gender: "female", expression: "happy" })).toBe("confidence 92%, about 31 years, female, happy")
    expect(describeFace({ box, score: 0.5 })).toBe("confidence 50%")
  })
})

describe("history", () => {
  beforeEach(() => vi.stubGlobal("chrome", createFakeChrome()))
  afterEach(() => vi.unstubAllGlobals())

  it("keeps the newest entries first, at most HISTORY_LIMIT, without data: URL bytes, and clears", async () => {
    for (let index = 0; index < HISTORY_LIMIT + 5; index++) {
      await addToHistory({ kind: "text", imageUrl: `https://a.test/${index}.png`, summary: `entry ${index}`, detail: "" }, 1_000 + index)
    }
    const entries = await loadHistory()
    expect(entries).toHaveLength(HISTORY_LIMIT)
    expect(entries[0]!.summary).toBe(`entry ${HISTORY_LIMIT + 4}`)
    await addToHistory({ kind: "ask", imageUrl: "data:image/png;base64,AAAA", summary: "s", detail: "d", question: "q" })
    expect((await loadHistory())[0]!.imageUrl).toBe("data:image/png;base64,…")
    expect(historyImageUrl("https://a.test/x.png")).toBe("https://a.test/x.png")
    await clearHistory()
    expect(await loadHistory()).toEqual([])
  })

  it("ignores stored entries that are not entries", async () => {
    await chrome.storage.local.set({ analysisHistory: [{ id: 1 }, "text", null] })
    expect(await loadHistory()).toEqual([])
  })
})

describe("the chat's memory", () => {
  it("sends back only the answers about the same image, with their questions, latest turns within the limits", () => {
    const messages: ChatMessage[] = [
      { id: 1, role: "user", text: "What is it?" },
      { id: 2, role: "assistant", text: "A cat.", imageUrl: "a", question: "What is it?" },
      { id: 3, role: "assistant", text: "A dog.", imageUrl: "b", question: "What is it?" },
      { id: 4, role: "error", text: "Quota", imageUrl: "a" },
      { id: 5, role: "assistant", text: "Black.", imageUrl: "a", question: "Colour?" }
    ]
    expect(chatHistoryFor(messages, "a")).toEqual([
      { question: "What is it?", answer: "A cat." },
      { question: "Colour?", answer: "Black." }
    ])
    const long = Array.from({ length: 14 }, (_, index) => ({ question: `q${index}`, answer: "x".repeat(5000) }))
    const sent = recentHistory(long)
    expect(sent).toHaveLength(10)
    expect(sent[0]!.question).toBe("q4")
    expect(sent.every((turn) => turn.answer.length === 4000)).toBe(true)
  })
})
