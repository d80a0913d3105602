/**
 * "Search the web for this image": the engines offered, the address each opens for an image the engine can
 * fetch itself, and the form each takes an uploaded image by. Shared by the side panel's menu, the page's
 * context menu and the upload page.
 */

export const REVERSE_SEARCH_ENGINE_IDS = ["google-lens", "bing", "tineye", "yandex"] as const
export type ReverseSearchEngineId = (typeof REVERSE_SEARCH_ENGINE_IDS)[number]

export interface ReverseSearchEngine {
  id: ReverseSearchEngineId
  name: string
  /** The search page for an image at a public address. */
  searchUrl: (imageUrl: string) => string
  /**
   * The engine's own upload form: a multipart POST of the image as `field`, as a file or (Bing) as base64 text.
   * Engines change these without notice; the address search above is the one they document.
   */
  upload: { action: string; field: string; encoding: "file" | "base64" }
}

export const REVERSE_SEARCH_ENGINES: readonly ReverseSearchEngine[] = [
  {
    id: "google-lens",
    name: "Google Lens",
    searchUrl: (imageUrl) => `https://lens.google.com/uploadbyurl?url=${encodeURIComponent(imageUrl)}`,
    upload: { action: "https://lens.google.com/v3/upload", field: "encoded_image", encoding: "file" }
  },
  {
    id: "bing",
    name: "Bing Visual Search",
    searchUrl: (imageUrl) => `https://www.bing.com/images/searchbyimage?cbir=sbi&imgurl=${encodeURIComponent(imageUrl)}`,
    upload: { action: "https://www.bing.com/images/search?view=detailv2&iss=sbi&FORM=SBIIDP", field: "imageBin", encoding: "base64" }
  },
  {
    id: "tineye",
    name: "TinEye",
    searchUrl: (imageUrl) => `https://tineye.com/search?url=${encodeURIComponent(imageUrl)}`,
    upload: { action: "https://tineye.com/search", field: "image", encoding: "file" }
  },
  {
    id: "yandex",
    name: "Yandex",
    searchUrl: (imageUrl) => `https://yandex.com/images/search?rpt=imageview&url=${encodeURIComponent(imageUrl)}`,
    upload: { action: "https://yandex.com/images/search?rpt=imageview", field: "upfile", encoding: "file" }
  }
]

export function reverseSearchEngine(id: unknown): ReverseSearchEngine | undefined {
  return REVERSE_SEARCH_ENGINES.find((engine) => engine.id === id)
}

/**
 * Whether an engine can fetch the image itself: an http(s) address. A capture, a paste, a `blob:` or `data:`
 * image exists only in this browser and must be uploaded instead (after asking).
 */
export function hasPublicAddress(imageUrl: string): boolean {
  return /^https?:\/\//i.test(imageUrl)
}
