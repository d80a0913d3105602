/**
 * The origins of the companion site that may message the extension. The same list, as match patterns, is the
 * manifest's externally_connectable.matches in package.json (site-origins.test.ts keeps the two in step):
 * Chrome exposes chrome.runtime.sendMessage only to pages of these origins, and the service worker checks the
 * sender's origin again before acting on a message.
 */
export const SITE_ORIGINS = ["http://localhost:8787", "http://127.0.0.1:8787"] as const

function originOf(url: string | undefined): string | null {
  if (!url) return null
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** What Chrome tells a listener about the sender of a message (the part of chrome.runtime.MessageSender read here). */
export interface SenderLike {
  id?: string
  origin?: string
  url?: string
}

/**
 * True only for a top-level or framed page of one of SITE_ORIGINS. Both sender.origin and the origin of
 * sender.url must be allowed when Chrome gives them (an allowed page framing a foreign one, or the reverse,
 * fails), and at least one of them must be present.
 */
export function isAllowedSiteSender(sender: SenderLike | undefined, allowed: readonly string[] = SITE_ORIGINS): boolean {
  if (!sender) return false
  const fromOrigin = typeof sender.origin === "string" ? sender.origin : null
  const fromUrl = originOf(sender.url)
  if (fromOrigin === null && fromUrl === null) return false
  if (fromOrigin !== null && !allowed.includes(fromOrigin)) return false
  if (sender.url !== undefined && (fromUrl === null || !allowed.includes(fromUrl))) return false
  return true
}
