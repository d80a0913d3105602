import { useCallback, useState } from "react"

import type { PanelImage } from "./tab-images"
import type { AnalysisKind } from "../settings/settings"

export interface FocusedImage {
  image: PanelImage & { tabId?: number; pageUrl?: string }
  /** Runs once when the image arrives from the on-image button or the menu. */
  autoRun: AnalysisKind | null
  /** *Translate image*: once the text is read, translate it and lay the translation over the image. */
  translateOnImage?: boolean
  /** Tells one opening of the same image from the next (a new pick starts afresh). */
  token: number
}

/**
 * The image open in detail, if any. The image last shown in detail stays marked in the grid after going back,
 * so the user sees where they were.
 */
export function useFocusedImage() {
  const [focused, setFocusedImage] = useState<FocusedImage | null>(null)
  const [lastOpened, setLastOpened] = useState<string | null>(null)
  const focus = useCallback((next: FocusedImage | null) => {
    setFocusedImage(next)
    if (next) setLastOpened(next.image.url)
  }, [])
  return { focused, lastOpened, focus }
}
