/**
 * White-label: the organisation an account belongs to shows its display name, logo and accent colour in the side
 * panel's header and the popup. The membership travels in the stored session's user (the sign-in answer, refreshed
 * from GET /api/auth/profile by loadAccount), so it shows offline too. The logo is fetched once per address (a new
 * address for each upload) by an extension page, never a content script, and kept in chrome.storage.local as a
 * data: URL, so it shows offline as well; it is dropped when the membership goes or its address changes.
 */
import * as z from "zod"

import { ACCENT_COLOR_PATTERN, membershipSchema, type Membership } from "~core/organizations"
import { textColorOn } from "~ui/contrast"

import { getApiOrigin } from "../site-link/api-origin"
import { readExtensionSession, type SessionUser } from "./extension-session"
import { fetchRecorded } from "./sent-ledger"
import { storageItem } from "../storage/storage-item"

/** The largest logo accepted: the server sends a 256-pixel PNG of some tens of KB; anything past this is not it. */
export const MAX_BRAND_LOGO_BYTES = 300 * 1024
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const PNG_DATA_URL_PREFIX = "data:image/png;base64,"

/** The brand as the header draws it. */
export interface Brand {
  name: string
  /** `#rrggbb`, or null: the product's own white header. */
  accentColor: string | null
  /** The text colour on the accent colour (white or black by luminance), null without one. */
  textColor: string | null
  /** The logo kept in storage (a data: URL), or null: none uploaded, or not fetched yet. */
  logo: string | null
}

/** The membership the stored user carries, when it is one; a malformed value counts as none. */
export function membershipOfUser(user: Pick<SessionUser, "organization"> | null | undefined): Membership | null {
  const parsed = membershipSchema.safeParse(user?.organization)
  return parsed.success ? parsed.data : null
}

/** What the header shows for `membership`, with `logo` the stored copy (used only when it is of the current address). */
export function brandOf(membership: Membership | null, logo: StoredBrandLogo | null): Brand | null {
  if (!membership) return null
  const color = membership.brand.accentColor?.toLowerCase() ?? null
  const accentColor = color && ACCENT_COLOR_PATTERN.test(color) ? color : null
  return {
    name: membership.brand.name.trim() || membership.name,
    accentColor,
    textColor: accentColor && textColorOn(accentColor),
    logo: logo && membership.brand.logoUrl && logo.url === membership.brand.logoUrl ? logo.dataUrl : null
  }
}

const storedBrandLogoSchema = z.object({
  /** The membership's logoUrl it is the copy of. */
  url: z.string(),
  dataUrl: z.string().startsWith(PNG_DATA_URL_PREFIX)
})
export type StoredBrandLogo = z.infer<typeof storedBrandLogoSchema>

export const brandLogoItem = storageItem<StoredBrandLogo | null>({ key: "organizationLogo", schema: storedBrandLogoSchema.nullable(), fallback: null })

/** The body's bytes, refused once past `limit` without reading the rest. */
async function readAtMost(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"))
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel()
    throw new Error(`The logo is over ${limit} bytes`)
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer())
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw new Error(`The logo is over ${limit} bytes`)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

function base64Of(bytes: Uint8Array): string {
  let binary = ""
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  return btoa(binary)
}

/** Downloads the logo at `url` as a PNG data: URL; rejects unless the answer is a PNG (by its type and its bytes) of at most 300 KB. */
export async function fetchBrandLogo(url: string, fetchImpl: typeof fetch = fetchRecorded): Promise<string> {
  const response = await fetchImpl(url, { credentials: "omit", redirect: "error" })
  if (!response.ok) {
    await response.body?.cancel()
    throw new Error(`The logo could not be fetched (HTTP ${response.status})`)
  }
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase()
  if (type !== "image/png") {
    await response.body?.cancel()
    throw new Error(`The logo is not a PNG (${type ?? "no type"})`)
  }
  const bytes = await readAtMost(response, MAX_BRAND_LOGO_BYTES)
  if (!PNG_SIGNATURE.every((byte, index) => bytes[index] === byte)) throw new Error("The logo is not a PNG")
  return PNG_DATA_URL_PREFIX + base64Of(bytes)
}

/** The path of an organisation's logo on the service (GET /api/organizations/:id/logo/:name). */
const LOGO_PATH = /^\/api\/organizations\/[^/]+\/logo\/[^/]+$/

/**
 * Where to fetch the logo of address `url`: its path on the service the extension talks to, as every other request,
 * whatever host the server's public address names (localhost for 127.0.0.1, an internal name); null for an address
 * that is not a logo's.
 */
export function logoAddressOn(url: string, apiOrigin: string): string | null {
  try {
    const { pathname, protocol } = new URL(url)
    return (protocol === "https:" || protocol === "http:") && LOGO_PATH.test(pathname) ? `${apiOrigin}${pathname}` : null
  } catch {
    return null
  }
}

const pending = new Map<string, Promise<void>>()

async function fetchAndKeep(url: string, address: string, fetchImpl: typeof fetch | undefined): Promise<void> {
  const dataUrl = await fetchBrandLogo(address, fetchImpl)
  // The account may have signed out, left or changed its logo during the download.
  if (membershipOfUser((await readExtensionSession())?.user)?.brand.logoUrl !== url) return
  await brandLogoItem.set({ url, dataUrl })
}

/**
 * Brings the stored logo in line with `membership`: dropped when there is no membership or its logo changed address,
 * fetched when a new address has none stored (once at a time per address in this context). Never throws: a logo
 * that cannot be fetched now (offline, refused) is tried again at the next load of the account.
 */
export async function keepBrandLogo(membership: Membership | null, { fetch: fetchImpl, apiOrigin }: { fetch?: typeof fetch; apiOrigin?: string } = {}): Promise<void> {
  try {
    const url = membership?.brand.logoUrl ?? null
    const stored = await brandLogoItem.get()
    if (stored && stored.url !== url) await brandLogoItem.remove()
    if (!url || stored?.url === url) return
    const address = logoAddressOn(url, apiOrigin ?? (await getApiOrigin()))
    if (!address) return
    let download = pending.get(url)
    if (!download) {
      download = fetchAndKeep(url, address, fetchImpl).finally(() => pending.delete(url))
      pending.set(url, download)
    }
    await download
  } catch (error) {
    console.warn("Could not keep the organisation's logo", error)
  }
}
