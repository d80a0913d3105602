import { useEffect, useEffectEvent, useRef } from "react"

import { selectedImageItem, type SelectedImage } from "~extension/panel-handoff/selected-image"

import type { PanelImage } from "./tab-images"
import type { PanelSettings } from "../settings/settings"
import type { FocusedImage } from "./use-focused-image"
import type { ScanState } from "./use-page-scan"

/** An image picked this long before the panel opened is still the one to show (the menu stores it as the panel starts). */
export const PENDING_SELECTION_MAX_AGE_MS = 60_000

/** A picked image the page's scan does not list (yet): shown from its URL alone. */
const unlistedImage = (url: string): PanelImage => ({ url, width: 0, height: 0, renderedWidth: 0, renderedHeight: 0, alt: "", source: "img", frameId: 0 })

export interface PickedImageOptions {
  /** Nothing happens until the settings are loaded: a pick runs the default analysis they name. */
  settings: PanelSettings | undefined
  scanAndShow: (tabId?: number) => Promise<ScanState>
  onPicked: (focused: FocusedImage) => void
  /** At start-up, when no recent pick is waiting. */
  onNothingPending: () => void
  now?: () => number
}

/**
 * The image picked with the "Analyse image" menu entry or the on-image button: the one waiting when the panel
 * starts, then every later pick. Each pick scans the image's tab and opens the image with the default analysis.
 */
export function usePickedImage({ settings, scanAndShow, onPicked, onNothingPending, now = Date.now }: PickedImageOptions): void {
  const lastTaken = useRef(0)

  const take = useEffectEvent((selection: SelectedImage | null) => {
    if (!selection || !settings || selection.selectedAt <= lastTaken.current) return
    lastTaken.current = selection.selectedAt
    const translateOnImage = selection.action === "translate"
    const autoRun = translateOnImage ? "text" : settings.defaultAnalysis === "none" ? null : settings.defaultAnalysis
    void scanAndShow(selection.tabId).then((scan) => {
      const image = (scan.kind === "ready" ? scan.images.find((listed) => listed.url === selection.url) : undefined) ?? unlistedImage(selection.url)
      onPicked({ image: { ...image, tabId: selection.tabId, pageUrl: selection.pageUrl }, autoRun, translateOnImage, token: selection.selectedAt })
    })
  })

  const start = useEffectEvent(() => {
    void selectedImageItem.get().then((selection) => {
      if (selection && now() - selection.selectedAt < PENDING_SELECTION_MAX_AGE_MS) take(selection)
      else onNothingPending()
    })
    return selectedImageItem.watch((selection) => take(selection))
  })

  const settingsLoaded = settings !== undefined
  useEffect(() => {
    if (settingsLoaded) return start()
  }, [settingsLoaded])
}
