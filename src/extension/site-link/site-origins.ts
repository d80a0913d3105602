/**
 * The origins of the companion site that may message the extension, fixed by the build:
 * - PLASMO_PUBLIC_SITE_ORIGINS, comma-separated origins (Plasmo inlines PLASMO_PUBLIC_* at build time);
 * - when it is unset, the origin of the build's API address (PLASMO_PUBLIC_API_URL): the API server serves the site;
 * - in development builds only, also the local site of `npm start` (LOOPBACK_SITE_ORIGINS).
 * Each must be https, or http on this computer, by the rule of the API address. A loopback origin (this computer) is
 * trusted by a development build, and by a production build only when PLASMO_PUBLIC_SITE_ORIGINS names it: never
 * because the API address is a local one (the default), or every store build would trust whatever runs on the
 * user's localhost:8787.
 *
 * scripts/copy-extension-assets.mjs writes the same list, as match patterns, into the built manifest's
 * externally_connectable.matches: Chrome exposes chrome.runtime.sendMessage and connect only to pages of these
 * origins (to their frames too, wherever they are framed), and the service worker checks the sender again before
 * acting on a message: its origin, and that it is the top-level frame of its tab.
 */
import { builtApiOrigin, DEFAULT_API_ORIGIN, isLoopbackHostname, parseApiOrigin } from "./api-origin"
import type { MessageSender } from "../messaging/message-dispatch"
import { isOwnSitePage, isTopFrame } from "../messaging/message-senders"

/** The site `npm start` serves, under both of its local names; package.json's manifest lists these for `plasmo dev`. */
export const LOOPBACK_SITE_ORIGINS = ["http://localhost:8787", "http://127.0.0.1:8787"] as const

export interface SiteOriginsBuild {
  /** PLASMO_PUBLIC_SITE_ORIGINS as given to the build. */
  siteOrigins: string | undefined
  /** PLASMO_PUBLIC_API_URL as given to the build. */
  apiUrl: string | undefined
  development: boolean
}

/** The rule, in the words the build scripts print beside the origins they trust. */
export const LOOPBACK_SITE_ORIGIN_RULE =
  "loopback site origins (localhost, 127.x, [::1]) are trusted by development builds, and by a production build only when PLASMO_PUBLIC_SITE_ORIGINS names them"

export const isLoopbackOrigin = (origin: string): boolean => isLoopbackHostname(new URL(origin).hostname)

/** The trusted site origins of a build; throws, naming the variable, on an entry that is not an allowed origin. */
export function siteOriginsFor({ siteOrigins, apiUrl, development }: SiteOriginsBuild): string[] {
  const named = Boolean(siteOrigins?.trim())
  const listed = named ? siteOrigins!.split(",").map((entry) => entry.trim()).filter(Boolean) : [new URL(builtApiOrigin(apiUrl)).origin]
  const origins = listed.map((entry) => {
    const parsed = parseApiOrigin(entry)
    if (!parsed.ok) throw new Error(`PLASMO_PUBLIC_SITE_ORIGINS${named ? "" : " (unset: the origin of PLASMO_PUBLIC_API_URL)"}: ${entry}: ${parsed.error}`)
    return parsed.origin
  })
  const trusted = named || development ? origins : origins.filter((origin) => !isLoopbackOrigin(origin))
  return [...new Set([...trusted, ...(development ? LOOPBACK_SITE_ORIGINS : [])])]
}

export const SITE_ORIGINS: readonly string[] = siteOriginsFor({
  siteOrigins: process.env.PLASMO_PUBLIC_SITE_ORIGINS,
  apiUrl: process.env.PLASMO_PUBLIC_API_URL,
  development: process.env.NODE_ENV === "development"
})

/** The externally_connectable match pattern of each origin. */
export const siteMatchPatterns = (origins: readonly string[]): string[] => origins.map((origin) => `${origin}/*`)

function originOf(url: string | undefined): string | null {
  if (!url) return null
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** What Chrome tells a listener about the sender of a message (the part of chrome.runtime.MessageSender read here). */
export type SenderLike = Pick<MessageSender, "id" | "origin" | "url" | "frameId" | "documentLifecycle">

/**
 * True only for the top-level frame of a page of one of SITE_ORIGINS (isTopFrame): a page of the site framed by
 * another page, whoever frames it, can neither sign the extension in or out nor hold the site link. Both
 * sender.origin and the origin of sender.url must be allowed when Chrome gives them (an allowed page framing a foreign
 * one, or the reverse, fails), and at least one of them must be present.
 */
export function isAllowedSiteSender(sender: SenderLike | undefined, allowed: readonly string[] = SITE_ORIGINS): boolean {
  if (!sender || !isTopFrame(sender)) return false
  const fromOrigin = typeof sender.origin === "string" ? sender.origin : null
  const fromUrl = originOf(sender.url)
  if (fromOrigin === null && fromUrl === null) return false
  if (fromOrigin !== null && !allowed.includes(fromOrigin)) return false
  if (sender.url !== undefined && (fromUrl === null || !allowed.includes(fromUrl))) return false
  return true
}

/**
 * Whether a page of `siteOrigin` (one of SITE_ORIGINS) may hand its session to the extension while the extension talks
 * to `apiOrigin`. The site's token is a key to the server that issued it: it may go only to that server. So the page
 * must be the API's own origin, or the API must be the one the build paired the trusted site origins with (the API
 * address the build bakes in). After the user points the extension at another service in Settings, a page of the old
 * site is refused: its token would otherwise be sent to the new address.
 */
export function siteMayHandOverTo(siteOrigin: string, apiOrigin: string, pairing: { builtApiOrigin: string; siteOrigins: readonly string[] } = { builtApiOrigin: DEFAULT_API_ORIGIN, siteOrigins: SITE_ORIGINS }): boolean {
  if (siteOrigin === apiOrigin) return true
  return apiOrigin === pairing.builtApiOrigin && pairing.siteOrigins.includes(siteOrigin)
}

/** The origin a site sender's page is on (sender.origin, else its URL's); null when it has neither. */
export function senderOrigin(sender: SenderLike | undefined): string | null {
  return typeof sender?.origin === "string" ? sender.origin : originOf(sender?.url)
}

/**
 * A sender that may speak for the site: the top frame of a page of SITE_ORIGINS, or the extension's own site page
 * (an extension page, which no web page can frame: the extension lists no web_accessible_resources).
 */
export function isSiteSender(sender: MessageSender | undefined): boolean {
  return isAllowedSiteSender(sender) || isOwnSitePage(sender)
}
