/**
 * The browser's model downloads the panel started, live: Settings show their progress, and keep showing it when
 * Settings are closed and opened again while the download goes on. A download starts only from the person's click
 * (the browser asks for one: `create()` needs a user activation when the model is "downloadable").
 */
import { languageDetectorApi, languageModelApi, questionModelOptions, translatorApi } from "./built-in-ai"
import type { AiCapability } from "./engine-choice"

/** What the browser reported last: a fraction, and bytes when it gives them (older Chrome reported bytes). */
export type DownloadState = { status: "downloading"; fraction: number; loadedBytes?: number; totalBytes?: number } | { status: "failed"; message: string }

const downloads = new Map<AiCapability, DownloadState>()
const listeners = new Set<() => void>()
const changed = () => listeners.forEach((listener) => listener())

export function subscribeDownloads(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const downloadOf = (capability: AiCapability): DownloadState | undefined => downloads.get(capability)

/** A `monitor` for `create()` that keeps the capability's progress. */
function progressMonitor(capability: AiCapability): CreateMonitorCallback {
  return (monitor) =>
    monitor.addEventListener("downloadprogress", (event) => {
      const bytes = event.total > 1 ? { loadedBytes: event.loaded, totalBytes: event.total } : {}
      downloads.set(capability, { status: "downloading", fraction: event.total > 0 ? Math.min(1, event.loaded / event.total) : 0, ...bytes })
      changed()
    })
}

/** Why a download ended early, in the person's words. */
export function downloadFailure(error: unknown): string {
  const name = error instanceof DOMException ? error.name : ""
  if (name === "NotAllowedError") return "The browser refused to start the download. Click Download again."
  if (name === "AbortError") return "The download was stopped. Click Download to start it again."
  if (name === "QuotaExceededError") return "There is not enough free disk space for the browser's model."
  if (name === "NotSupportedError") return "The browser says its model cannot run on this device."
  const detail = error instanceof Error ? error.message.replace(/\.$/, "") : ""
  return `The download stopped${detail ? `: ${detail}` : ""}. Click Download to try again.`
}

/**
 * Downloads the model a capability needs; for translation, the pair shown in Settings and the language detector.
 * The object `create()` gives is destroyed at once: the model stays downloaded, and each use makes its own.
 */
export async function startDownload(capability: AiCapability, pair?: { sourceLanguage: string; targetLanguage: string }): Promise<void> {
  if (downloads.get(capability)?.status === "downloading") return
  downloads.set(capability, { status: "downloading", fraction: 0 })
  changed()
  const monitor = progressMonitor(capability)
  try {
    if (capability === "questions") {
      const api = languageModelApi()
      if (!api) throw new Error("this browser has no built-in model")
      ;(await api.create({ ...questionModelOptions(), monitor })).destroy()
    } else {
      const translator = translatorApi()
      if (!translator || !pair) throw new Error("this browser has no built-in translator")
      // The detector tells the language of an image's text; without it the OCR's language is used, so its failure
      // does not fail the translator's download (started in the same click, which both need).
      void languageDetectorApi()
        ?.create()
        .then((detector) => detector.destroy())
        .catch(() => {})
      ;(await translator.create({ ...pair, monitor })).destroy()
    }
    downloads.delete(capability)
  } catch (error) {
    downloads.set(capability, { status: "failed", message: downloadFailure(error) })
  }
  changed()
}
