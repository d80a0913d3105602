/**
 * The address of the Image Query AI service the extension talks to: the one baked in at build time
 * (PLASMO_PUBLIC_API_URL), unless the user chose another in the side panel's Settings.
 */
import * as z from "zod"

import { storageItem } from "../storage/storage-item"

/** The API address a build bakes in: PLASMO_PUBLIC_API_URL, or the local server `npm start` runs. */
export function builtApiOrigin(apiUrl: string | undefined): string {
  return (apiUrl || "http://localhost:8787").replace(/\/+$/, "")
}

export const DEFAULT_API_ORIGIN = builtApiOrigin(process.env.PLASMO_PUBLIC_API_URL)

export const PLAIN_HTTP_REFUSED_ERROR = "Use https://. Plain http:// is only for a service on this computer (localhost, 127.x.x.x or [::1])"

/**
 * This computer, as the URL parser writes its hostname: localhost, 127.0.0.0/8 (the parser has already turned
 * 127.1 or 0x7f.0.0.1 into dotted decimal, so a name such as 127.0.0.1.nip.io does not match) and [::1].
 */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

/**
 * The API address as typed in Settings: an https origin with no path, or an http one on this computer (plain http
 * elsewhere would carry the session's tokens readable to the network), or an error in plain words.
 * Trailing slashes are forgiven; anything after the host is not.
 */
export function parseApiOrigin(input: string): { ok: true; origin: string } | { ok: false; error: string } {
  const text = input.trim().replace(/\/+$/, "")
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, error: "Enter an address such as https://imagequery.ai" }
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, error: "The address must start with https:// or http://" }
  if (url.origin !== text) return { ok: false, error: "Enter only the address of the service, without a path" }
  if (url.protocol === "http:" && !isLoopbackHostname(url.hostname)) return { ok: false, error: PLAIN_HTTP_REFUSED_ERROR }
  return { ok: true, origin: url.origin }
}

/** The origin chosen in Settings; a stored value that is not one (by the same rule as the form) is ignored. */
export const apiOriginItem = storageItem({
  key: "apiOrigin",
  schema: z.string().refine((value) => {
    const parsed = parseApiOrigin(value)
    return parsed.ok && parsed.origin === value
  }),
  fallback: DEFAULT_API_ORIGIN
})

export const getApiOrigin = (): Promise<string> => apiOriginItem.get()
