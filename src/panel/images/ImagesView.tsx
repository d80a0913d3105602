/**
 * The Images section's content: the image open in detail if there is one, else the list of the page's images (while
 * they are looked for, or why the page cannot be scanned) under *Translate images on this page*.
 */
import { useMemo } from "react"

import { openSignIn } from "~extension/account/account"
import { Spinner } from "~ui/Spinner"

import { showOnPage } from "../find/page-places"
import { useImageReader } from "../find/use-image-reader"
import { ImageDetail } from "./ImageDetail"
import { filterPanelImages, ImagesSection, type ImageFilters } from "./ImagesSection"
import { PageTranslationBox } from "../page-translation/PageTranslationBox"
import type { PageTranslationControls } from "../page-translation/use-page-translation"
import type { PanelSettings } from "../settings/settings"
import type { PanelImage } from "./tab-images"
import type { FocusedImage } from "./use-focused-image"
import type { ScanState } from "./use-page-scan"
import type { useTickedImages } from "./use-ticked-images"

export interface ImagesViewProps {
  scan: ScanState
  /** Areas captured from the page shown: listed first. */
  captured: PanelImage[]
  focused: FocusedImage | null
  /** The image last open in detail, marked in the list. */
  lastOpened: string | null
  onFocus: (focused: FocusedImage | null) => void
  filters: ImageFilters
  onFiltersChange: (filters: ImageFilters) => void
  ticked: ReturnType<typeof useTickedImages>
  settings: PanelSettings
  onSettingsChange: (settings: PanelSettings) => void
  onUsageChanged: () => void
  /** Translate images on this page, shown above the list. */
  pageTranslation: PageTranslationControls
}

export function ImagesView({ scan, captured, focused, lastOpened, onFocus, filters, onFiltersChange, ticked, settings, onSettingsChange, onUsageChanged, pageTranslation }: ImagesViewProps) {
  const ready = scan.kind === "ready" ? scan : undefined
  // The page's images with where they were found: blob: images are read by their page, and whether an address may be
  // read depends on the page. Made once per scan, so that the list's cards keep their images from render to render.
  const images = useMemo(() => (ready ? ready.images.map((image) => ({ ...image, tabId: ready.tabId, pageUrl: ready.pageUrl })) : []), [ready])
  // Find in images reads the images the list shows.
  const targets = [...captured, ...filterPanelImages(images, filters)]
  const reader = useImageReader({ targets, tabId: ready?.tabId, settings, active: !focused && ready !== undefined })
  if (focused) {
    return (
      <ImageDetail
        key={`${focused.image.url}|${focused.token}`}
        image={focused.image}
        settings={settings}
        onSettingsChange={onSettingsChange}
        autoRun={focused.autoRun}
        translateOnImage={focused.translateOnImage}
        onBack={() => onFocus(null)}
        onUsageChanged={onUsageChanged}
        onSignIn={openSignIn}
      />
    )
  }
  if (scan.kind === "loading") return <Spinner label="Finding images" />
  if (scan.kind === "unavailable") {
    return <p className="rounded-lg bg-white p-4 text-sm text-gray-600 shadow-sm">This page cannot be scanned. Open a regular web page and press Rescan, or paste an image here (Ctrl+V).</p>
  }
  return (
    <div className="space-y-3">
      <PageTranslationBox {...pageTranslation} onSignIn={openSignIn} />
      <ImagesSection
        images={images}
        captured={captured}
        filters={filters}
        onFiltersChange={onFiltersChange}
        selected={ticked.urls}
        onToggleSelected={ticked.toggle}
        onClearSelection={ticked.clear}
        onOpen={(image) => onFocus({ image, autoRun: null, token: Date.now() })}
        highlighted={lastOpened}
        find={{ ...reader, onShowOnPage: (image) => showOnPage({ url: image.url, tabId: scan.tabId, frameId: image.frameId }) }}
      />
    </div>
  )
}
