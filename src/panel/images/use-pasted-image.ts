import { useEffect, useEffectEvent, useState } from "react"

import { MAX_ANALYSED_IMAGE_BYTES } from "./image-bytes"
import type { AnalysisKind, PanelSettings } from "../settings/settings"
import type { FocusedImage } from "./use-focused-image"

export const NOT_AN_IMAGE_MESSAGE = "That is not an image. Paste or drop a PNG, JPEG, GIF, WebP or BMP file."
export const PASTED_IMAGE_TOO_LARGE_MESSAGE = "That image is larger than 25 MB and cannot be analysed."

/** The analyses that stay on this device. */
const LOCAL_ANALYSES: readonly AnalysisKind[] = ["text", "faces", "objects"]

/**
 * The default analysis to run at once on an image of the panel's own (pasted, dropped or captured): only one done on
 * this device; such an image goes to the vision model only when the user asks.
 */
export function localAutoRun(settings: PanelSettings): AnalysisKind | null {
  return LOCAL_ANALYSES.includes(settings.defaultAnalysis as AnalysisKind) ? (settings.defaultAnalysis as AnalysisKind) : null
}

/** The image file among what was pasted or dropped, if any. */
export function imageFileOf(items: DataTransfer | null): File | null | "not-an-image" {
  const files = Array.from(items?.files ?? [])
  if (files.length === 0) return null
  return files.find((file) => file.type.startsWith("image/")) ?? "not-an-image"
}

/**
 * An image pasted (Ctrl+V) or dropped into the panel opens like a page's image, read from the panel itself (a blob:
 * URL of its own). The default analysis runs when it is one done on this device. Returns the last refusal, in
 * words, and whether a file is being dragged over the panel.
 */
export function usePastedImage({ settings, onPasted }: { settings: PanelSettings; onPasted: (focused: FocusedImage) => void }) {
  const [refusal, setRefusal] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)

  const open = useEffectEvent(async (file: File) => {
    if (file.size > MAX_ANALYSED_IMAGE_BYTES) {
      setRefusal(PASTED_IMAGE_TOO_LARGE_MESSAGE)
      return
    }
    let size: { width: number; height: number }
    try {
      const bitmap = await createImageBitmap(file)
      size = { width: bitmap.width, height: bitmap.height }
      bitmap.close()
    } catch {
      setRefusal(NOT_AN_IMAGE_MESSAGE)
      return
    }
    setRefusal(null)
    const url = URL.createObjectURL(file)
    const alt = file.name && file.name !== "image.png" ? file.name : "Pasted image"
    onPasted({
      image: { url, ...size, renderedWidth: size.width, renderedHeight: size.height, alt, source: "pasted", frameId: 0 },
      autoRun: localAutoRun(settings),
      token: Date.now()
    })
  })

  const receive = useEffectEvent((items: DataTransfer | null, event: Event) => {
    const file = imageFileOf(items)
    if (file === null) return
    event.preventDefault()
    if (file === "not-an-image") setRefusal(NOT_AN_IMAGE_MESSAGE)
    else void open(file)
  })

  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => receive(event.clipboardData, event)
    const onDragOver = (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes("Files")) return
      event.preventDefault()
      setDragging(true)
    }
    const onDragLeave = (event: DragEvent) => {
      // Leaving the panel, not moving between its elements.
      if (event.relatedTarget === null) setDragging(false)
    }
    const onDrop = (event: DragEvent) => {
      setDragging(false)
      receive(event.dataTransfer, event)
    }
    document.addEventListener("paste", onPaste)
    document.addEventListener("dragover", onDragOver)
    document.addEventListener("dragleave", onDragLeave)
    document.addEventListener("drop", onDrop)
    return () => {
      document.removeEventListener("paste", onPaste)
      document.removeEventListener("dragover", onDragOver)
      document.removeEventListener("dragleave", onDragLeave)
      document.removeEventListener("drop", onDrop)
    }
  }, [])

  return { refusal, dragging, dismiss: () => setRefusal(null) }
}
