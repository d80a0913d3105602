/** Past analyses, kept on this computer only (chrome.storage.local), newest first, at most HISTORY_LIMIT. */
import * as z from "zod"

import { storageItem } from "~extension/storage/storage-item"

import { ANALYSIS_KINDS } from "../settings/settings"

export const HISTORY_LIMIT = 50

const historyEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(ANALYSIS_KINDS),
  imageUrl: z.string(),
  pageUrl: z.string().optional(),
  /** One line for the list, e.g. "3 faces" or the first words read. */
  summary: z.string(),
  /** The question, for Ask and Scene. */
  question: z.string().optional(),
  /** The full text: words read, the model's answer, or labels with scores. */
  detail: z.string(),
  at: z.number()
})

export type HistoryEntry = z.infer<typeof historyEntrySchema>

/** Entries that are not entries (an older format, a hand edit) are dropped one by one, not the whole history. */
export const historyItem = storageItem<HistoryEntry[]>({
  key: "analysisHistory",
  schema: z.array(z.unknown()).transform((stored) => stored.flatMap((entry) => historyEntrySchema.safeParse(entry).data ?? [])),
  fallback: []
})

export const loadHistory = (): Promise<HistoryEntry[]> => historyItem.get()
export const clearHistory = (): Promise<void> => historyItem.remove()

/** Image URLs can be data: URLs of megabytes: history keeps a marker instead of the bytes. */
export function historyImageUrl(url: string): string {
  return url.startsWith("data:") ? `${url.slice(0, url.indexOf(",") + 1)}…` : url
}

export async function addToHistory(entry: Omit<HistoryEntry, "id" | "at">, now: number = Date.now()): Promise<HistoryEntry> {
  const saved: HistoryEntry = { ...entry, imageUrl: historyImageUrl(entry.imageUrl), id: `${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`, at: now }
  await historyItem.set([saved, ...(await loadHistory())].slice(0, HISTORY_LIMIT))
  return saved
}
