/**
 * The rule for an image's address: what the on-image button offers, what a pick (the menu's or the button's) may
 * carry and what the side panel loads. Its own module because the content scripts, which run in every frame of
 * every page, need the rule and nothing else of the message protocol.
 */

/**
 * Longest image URL a pick (the menu's or the button's) may carry, in characters. data: URLs carry the whole
 * image, and chrome.storage.session, where the pick is kept, holds 10 MB for everything the extension keeps there.
 */
export const MAX_PICKED_IMAGE_URL_LENGTH = 4 * 1024 * 1024

const IMAGE_URL_PROTOCOLS = new Set(["http:", "https:", "blob:", "data:"])

/** An http(s), blob: or data:image/ URL of bounded length: what an image on a page can be loaded from. */
export function isAnalysableImageUrl(url: unknown): url is string {
  if (typeof url !== "string" || url.length === 0 || url.length > MAX_PICKED_IMAGE_URL_LENGTH) return false
  if (url.startsWith("data:")) return /^data:image\/[\w.+-]+[;,]/i.test(url)
  // Parsing a long data: URL is skipped above; every other URL is short enough to parse.
  try {
    return IMAGE_URL_PROTOCOLS.has(new URL(url).protocol)
  } catch {
    return false
  }
}
