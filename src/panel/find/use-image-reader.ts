/**
 * Find in images' reading of the page's images on this computer: text (OCR), object labels and the face count of
 * each image the list shows, through the panel's own engines and result cache (analyses.ts), so an image read here
 * opens with its results and the other way round. What was read is kept per image URL for the panel's life, in
 * this module; nothing is sent anywhere.
 */
import { useEffect, useRef, useSyncExternalStore } from "react"

import { objectLabels, runAnalysis } from "../analyses"
import type { PanelSettings } from "../settings/settings"
import { searchableReading, type ImageReading, type SearchableReading } from "./image-search"
import { ORDER_REFRESH_MS, viewportDistances, whenTabQuiet } from "./page-places"
import { idlePeriod, readLoop, whenDocumentShown, type ReadOutcome, type ReadTarget } from "./read-loop"

export type ReadEntry = { status: "read"; searchable: SearchableReading } | { status: "failed"; message: string }

export interface ReaderState {
  /** idle: never started; reading: until every image is read; stopped: by the user's Stop. */
  mode: "idle" | "reading" | "stopped"
  /** The image being read now. */
  current: string | null
  readings: ReadonlyMap<string, ReadEntry>
}

let state: ReaderState = { mode: "idle", current: null, readings: new Map() }
const listeners = new Set<() => void>()
/** Images being read, by this loop or by one stopped while its image was still being read. */
const inFlight = new Set<string>()

function update(next: Partial<ReaderState>) {
  state = { ...state, ...next }
  for (const listener of listeners) listener()
}

function record(url: string, outcome: ReadOutcome) {
  inFlight.delete(url)
  const readings = new Map(state.readings)
  readings.set(url, outcome.status === "read" ? { status: "read", searchable: searchableReading(outcome.reading) } : outcome)
  update({ readings, current: state.current === url ? null : state.current })
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
const snapshot = () => state

export const startReading = () => update({ mode: "reading" })
export const stopReading = () => update({ mode: "stopped" })

/** What `read` gives, or the error it failed with. */
async function attempt<T>(read: () => Promise<T>): Promise<T | Error> {
  try {
    return await read()
  } catch (error) {
    return error instanceof Error ? error : new Error("The image could not be read.")
  }
}

/**
 * Text, labels and faces of one image; what one engine fails to read is left empty if another reads something.
 * `pageQuiet` comes before each engine: a user who starts scrolling the page mid-image waits for one engine at most.
 */
async function readForSearch(target: ReadTarget, settings: PanelSettings, pageQuiet: () => Promise<void>): Promise<ImageReading> {
  const image = { url: target.url, tabId: target.tabId, frameId: target.frameId, pageUrl: target.pageUrl }
  const text = await attempt(async () => {
    const outcome = await runAnalysis({ kind: "text", image, settings })
    return outcome.kind === "text" ? outcome.ocr.text.trim() : ""
  })
  await pageQuiet()
  const labels = await attempt(async () => {
    const outcome = await runAnalysis({ kind: "objects", image, settings })
    return outcome.kind === "objects" ? objectLabels(outcome.objects) : []
  })
  // Faces are counted without age, gender and expression: three models fewer, and the count is all a search needs.
  await pageQuiet()
  const faces = await attempt(async () => {
    const outcome = await runAnalysis({ kind: "faces", image, settings: { ...settings, faceAttributes: false } })
    return outcome.kind === "faces" ? outcome.faces.faces.length : 0
  })
  if (text instanceof Error && labels instanceof Error && faces instanceof Error) throw text
  return { text: text instanceof Error ? "" : text, labels: labels instanceof Error ? [] : labels, faces: faces instanceof Error ? 0 : faces }
}

/** The frames of the tab that hold the images. */
const framesOf = (images: readonly ReadTarget[], tabId: number) => images.flatMap((image) => (image.tabId === tabId ? [image.frameId ?? 0] : []))

export interface ImageReaderOptions {
  /** The images the list shows (under its size and type filters), in list order. */
  targets: readonly ReadTarget[]
  tabId: number | undefined
  settings: PanelSettings
  /** False while the list is not shown (an image is open in detail): its analyses get the engines first. */
  active: boolean
}

/** Where reading stands for the images the list shows, and its controls. */
export function useImageReader({ targets, tabId, settings, active }: ImageReaderOptions) {
  const reader = useSyncExternalStore(subscribe, snapshot)
  const latest = useRef({ targets, settings })
  useEffect(() => {
    latest.current = { targets, settings }
  })
  const unread = targets.filter((target) => !reader.readings.has(target.url)).length
  const running = reader.mode === "reading" && active && unread > 0

  useEffect(() => {
    if (!running) return
    const controller = new AbortController()
    const waitForQuietPage = (signal: AbortSignal) => (tabId === undefined ? Promise.resolve() : whenTabQuiet(tabId, () => framesOf(latest.current.targets, tabId), signal))
    void readLoop(
      {
        targets: () => latest.current.targets,
        isDone: (url) => state.readings.has(url) || inFlight.has(url),
        distances: (images) => (tabId === undefined ? Promise.resolve(new Map()) : viewportDistances(tabId, framesOf(images, tabId))),
        pageQuiet: waitForQuietPage,
        read: (target) => readForSearch(target, latest.current.settings, () => waitForQuietPage(controller.signal)),
        onStart: (url) => {
          inFlight.add(url)
          update({ current: url })
        },
        onRead: record,
        whenShown: whenDocumentShown,
        idle: idlePeriod,
        orderRefreshMs: ORDER_REFRESH_MS
      },
      controller.signal
    )
    return () => controller.abort()
  }, [running, tabId])

  let failed = 0
  for (const target of targets) if (reader.readings.get(target.url)?.status === "failed") failed++
  return {
    mode: reader.mode,
    current: reader.current,
    readings: reader.readings,
    read: targets.length - unread,
    failed,
    total: targets.length,
    start: startReading,
    stop: stopReading
  }
}

export type ImageReader = ReturnType<typeof useImageReader>
