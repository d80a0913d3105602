/** Past analyses, kept on this computer only (chrome.storage.local), newest first, at most HISTORY_LIMIT. */
import type { AnalysisKind } from "./settings"

export const HISTORY_KEY = "analysisHistory"
export const HISTORY_LIMIT = 50

export interface HistoryEntry {
  id: string
  kind: AnalysisKind
  imageUrl: string
  pageUrl?: string
  /** One line for the list, e.g. "3 faces" or the first words read. */
  summary: string
  /** The question, for Ask and Scene. */
  question?: string
  /** The full text: words read, the model's answer, or labels with scores. */
  detail: string
  at: number
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== "object" || value === null) return false
  const entry = value as Record<string, unknown>
  return typeof entry.id === "string" && typeof entry.kind === "string" && typeof entry.imageUrl === "string" && typeof entry.summary === "string" && typeof entry.detail === "string" && typeof entry.at === "number"
}

export async function loadHistory(): Promise<HistoryEntry[]> {
  const items = await chrome.storage.local.get(HISTORY_KEY)
  const stored = items[HISTORY_KEY]
  return Array.isArray(stored) ? stored.filter(isEntry) : []
}

/** Image URLs can be data: URLs of megabytes: history keeps a marker instead of the bytes. */
export function historyImageUrl(url: string): string {
  return url.startsWith("data:") ? `${url.slice(0, url.indexOf(",") + 1)}…` : url
}

export async function addToHistory(entry: Omit<HistoryEntry, "id" | "at">, now: number = Date.now()): Promise<HistoryEntry> {
  const saved: HistoryEntry = { ...entry, imageUrl: historyImageUrl(entry.imageUrl), id: `${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`, at: now }
  const entries = [saved, ...(await loadHistory())].slice(0, HISTORY_LIMIT)
  await chrome.storage.local.set({ [HISTORY_KEY]: entries })
  return saved
}

export async function clearHistory(): Promise<void> {
  await chrome.storage.local.remove(HISTORY_KEY)
}
