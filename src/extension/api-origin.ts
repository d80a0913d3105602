import { DEFAULT_API_ORIGIN } from "~api/api-origin"

/** chrome.storage.local key of the API origin chosen in the side panel's Settings. */
export const API_ORIGIN_STORAGE_KEY = "apiOrigin"

/** The API origin the extension talks to: the user's choice, else the one baked in at build time. */
export async function getApiOrigin(): Promise<string> {
  const items = await chrome.storage.local.get(API_ORIGIN_STORAGE_KEY)
  const stored = items[API_ORIGIN_STORAGE_KEY]
  return typeof stored === "string" && /^https?:\/\/[^/]+$/.test(stored) ? stored : DEFAULT_API_ORIGIN
}
