/**
 * Each capability's engine state as Settings say it, read from the browser: "Ready", "Downloading: 1.2 of 4 GB"
 * (live), "Needs a one-time download of about 4 GB", or "Not available in this browser" with the reason.
 */
import { useEffect, useState, useSyncExternalStore } from "react"

import { defaultTargetLanguage } from "../results/TranslateText"
import { reasonFor } from "./ai-engines"
import { questionsAvailability, translatorAvailability, translatorLanguage } from "./built-in-ai"
import { downloadOf, subscribeDownloads, type DownloadState } from "./downloads"
import type { AiCapability, ModelAvailability } from "./engine-choice"

/**
 * What a download weighs when the browser reports progress as a fraction only (as it does since Chrome 138): Chrome's
 * Gemini Nano is about 4 GB, a translation language pack tens of megabytes.
 */
export const APPROXIMATE_DOWNLOAD_BYTES: Record<AiCapability, number> = { questions: 4e9, translation: 1e8 }

/** While the browser downloads, its state is read again this often (a download started elsewhere, or finished). */
export const DOWNLOADING_RECHECK_MS = 2000

export interface EngineStatus {
  availability: ModelAvailability
  reason?: string
  /** A download this panel started: its progress, or why it stopped. */
  download?: DownloadState
}

/** The translation pair Settings show and download: into the browser's language, from English (from Spanish into English). */
export function settingsPair(target = defaultTargetLanguage()): { sourceLanguage: string; targetLanguage: string } {
  const targetLanguage = translatorLanguage(target)
  return { sourceLanguage: targetLanguage === "en" ? "es" : "en", targetLanguage }
}

const gigabytes = (bytes: number) => (bytes / 1e9).toLocaleString("en", { maximumFractionDigits: 1, minimumFractionDigits: bytes < 1e9 ? 1 : 0 })

/** The state in words. */
export function statusText(capability: AiCapability, { availability, reason, download }: EngineStatus): string {
  if (download?.status === "downloading" || availability === "downloading") {
    if (download?.status !== "downloading") return "Downloading…"
    const total = download.totalBytes ?? APPROXIMATE_DOWNLOAD_BYTES[capability]
    const loaded = download.loadedBytes ?? download.fraction * total
    return `Downloading: ${gigabytes(loaded)} of ${gigabytes(total)} GB`
  }
  switch (availability) {
    case "available":
      return "Ready"
    case "downloadable":
      return `Needs a one-time download of about ${gigabytes(APPROXIMATE_DOWNLOAD_BYTES[capability])} GB`
    case "unavailable":
    case "absent":
      return `Not available in this browser${reason ? `: ${reason}` : ""}`
  }
}

async function readAvailability(capability: AiCapability): Promise<ModelAvailability> {
  if (capability === "questions") return questionsAvailability()
  const { sourceLanguage, targetLanguage } = settingsPair()
  return translatorAvailability(sourceLanguage, targetLanguage)
}

/** The capability's state, read on showing, after a download's news, and every 2 s while the browser downloads. */
export function useEngineStatus(capability: AiCapability): EngineStatus | null {
  const download = useSyncExternalStore(subscribeDownloads, () => downloadOf(capability))
  const [availability, setAvailability] = useState<ModelAvailability | null>(null)
  const downloading = download?.status === "downloading" || availability === "downloading"
  useEffect(() => {
    let current = true
    const read = () => void readAvailability(capability).then((state) => current && setAvailability(state))
    read()
    const timer = downloading ? setInterval(read, DOWNLOADING_RECHECK_MS) : undefined
    return () => {
      current = false
      clearInterval(timer)
    }
    // A download's end (download becomes undefined or failed) reads the state again.
  }, [capability, downloading, download?.status])
  if (availability === null) return null
  return { availability, reason: reasonFor(availability), ...(download ? { download } : {}) }
}
