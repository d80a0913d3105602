import { describe, expect, it } from "vitest"

import { hasPublicAddress, REVERSE_SEARCH_ENGINE_IDS, REVERSE_SEARCH_ENGINES, reverseSearchEngine } from "./reverse-search"

describe("reverse image search engines", () => {
  const image = "https://cdn.example.com/photos/a b.jpg?size=large&v=2#top"

  it("opens each engine with the image's whole address as one query value", () => {
    const urls = Object.fromEntries(REVERSE_SEARCH_ENGINES.map((engine) => [engine.id, engine.searchUrl(image)]))
    const encoded = encodeURIComponent(image)
    expect(urls).toEqual({
      "google-lens": `https://lens.google.com/uploadbyurl?url=${encoded}`,
      bing: `https://www.bing.com/images/searchbyimage?cbir=sbi&imgurl=${encoded}`,
      tineye: `https://tineye.com/search?url=${encoded}`,
      yandex: `https://yandex.com/images/search?rpt=imageview&url=${encoded}`
    })
    // The image's own query and fragment stay inside the value instead of becoming the engine's parameters.
    for (const [id, url] of Object.entries(urls)) {
      const parameter = id === "bing" ? "imgurl" : "url"
      expect(new URL(url).searchParams.get(parameter)).toBe(image)
    }
  })

  it("lists the four engines in the menus' order, found by id", () => {
    expect(REVERSE_SEARCH_ENGINES.map((engine) => engine.name)).toEqual(["Google Lens", "Bing Visual Search", "TinEye", "Yandex"])
    for (const id of REVERSE_SEARCH_ENGINE_IDS) expect(reverseSearchEngine(id)?.id).toBe(id)
    expect(reverseSearchEngine("altavista")).toBeUndefined()
    expect(reverseSearchEngine(undefined)).toBeUndefined()
  })

  it("counts only http(s) images as fetchable by an engine; captures, pastes, blob: and data: images must be uploaded", () => {
    expect(hasPublicAddress("https://example.com/a.png")).toBe(true)
    expect(hasPublicAddress("HTTP://example.com/a.png")).toBe(true)
    expect(hasPublicAddress("blob:https://example.com/5b1c")).toBe(false)
    expect(hasPublicAddress("data:image/png;base64,iVBORw0KGgo=")).toBe(false)
    expect(hasPublicAddress("blob:chrome-extension://abc/5b1c")).toBe(false)
    expect(hasPublicAddress("file:///home/me/a.png")).toBe(false)
  })
})
