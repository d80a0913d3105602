/**
 * The address of the Image Query AI service the extension talks to: the one baked in at build time
 * (PLASMO_PUBLIC_API_URL), unless the user chose another in the side panel's Settings.
 */
import * as z from "zod"

import { storageItem } from "./storage-item"

export const DEFAULT_API_ORIGIN = (process.env.PLASMO_PUBLIC_API_URL || "http://localhost:8787").replace(/\/+$/, "")

/**
 * The API address as typed in Settings: an http(s) origin with no path, or an error in plain words.
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
