import { useCallback, useLayoutEffect, useRef } from "react"

import { countOf } from "~core/format"
import { filterImagesBySize, SIZE_FILTER_LABELS, SIZE_FILTERS, type ImageFilterOptions, type SizeFilter } from "~core/images/image-size"

import { FindInImages, type FindProgress } from "../find/FindInImages"
import { matchReading, queryWords, type MatchReason } from "../find/image-search"
import type { ReadEntry } from "../find/use-image-reader"
import { ImageCard } from "./ImageCard"
import { IMAGE_TYPE_FILTERS, IMAGE_TYPE_LABELS, matchesTypeFilter, type ImageTypeFilter, type PanelImage } from "./tab-images"

export interface ImageFilters extends ImageFilterOptions {
  type: ImageTypeFilter
  /** Find in images: words the images' text, objects or faces must show ("" shows every image). */
  query: string
}

/** The images whose reading matches every word, each with why; null (no search) when there are no words. */
export function searchImages(images: readonly PanelImage[], words: readonly string[], readings: ReadonlyMap<string, ReadEntry>): Map<string, MatchReason[]> | null {
  if (!words.length) return null
  const found = new Map<string, MatchReason[]>()
  for (const image of images) {
    const entry = readings.get(image.url)
    const reasons = entry?.status === "read" ? matchReading(entry.searchable, words) : null
    if (reasons) found.set(image.url, reasons)
  }
  return found
}

/** The grid's images under the filters: size and 'Hide small images' by the core rule, then the type. */
export function filterPanelImages(images: readonly PanelImage[], filters: Omit<ImageFilters, "query">): PanelImage[] {
  return filterImagesBySize(images, filters).filter((image) => matchesTypeFilter(image, filters.type))
}

const selectClass =
  "rounded-md border border-gray-300 bg-white px-2 py-1 text-sm focus:border-brand-primary focus:outline-none focus:ring-2 focus:ring-brand-primary/30"

export interface ImagesSectionProps {
  images: PanelImage[]
  /** Areas captured from this page: listed first, whatever the filters. */
  captured: PanelImage[]
  filters: ImageFilters
  onFiltersChange: (filters: ImageFilters) => void
  selected: ReadonlySet<string>
  onToggleSelected: (url: string) => void
  onClearSelection: () => void
  onOpen: (image: PanelImage) => void
  highlighted: string | null
  find: FindProgress & { readings: ReadonlyMap<string, ReadEntry>; onShowOnPage: (image: PanelImage) => Promise<boolean> }
}

export function ImagesSection({ images, captured, filters, onFiltersChange, selected, onToggleSelected, onClearSelection, onOpen, highlighted, find }: ImagesSectionProps) {
  const filtered = filterPanelImages(images, filters)
  const listed = [...captured, ...filtered]
  const found = searchImages(listed, queryWords(filters.query), find.readings)
  const visible = found ? found.size : listed.length
  // The cards get handlers of one identity that call the latest props: an unchanged card is not rendered again.
  const latest = useRef({ onOpen, onToggleSelected, onShowOnPage: find.onShowOnPage })
  useLayoutEffect(() => {
    latest.current = { onOpen, onToggleSelected, onShowOnPage: find.onShowOnPage }
  })
  const openCard = useCallback((image: PanelImage) => latest.current.onOpen(image), [])
  const toggleCard = useCallback((url: string) => latest.current.onToggleSelected(url), [])
  const showCard = useCallback((image: PanelImage) => latest.current.onShowOnPage(image), [])
  return (
    <div className="space-y-3">
      <FindInImages query={filters.query} onQueryChange={(query) => onFiltersChange({ ...filters, query })} progress={find} />

      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-gray-200 bg-white p-3">
        <label className="flex items-center gap-2 text-sm">
          Size
          <select className={selectClass} value={filters.size} onChange={(event) => onFiltersChange({ ...filters, size: event.target.value as SizeFilter })}>
            {SIZE_FILTERS.map((size) => (
              <option key={size} value={size}>
                {SIZE_FILTER_LABELS[size]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          Type
          <select className={selectClass} value={filters.type} onChange={(event) => onFiltersChange({ ...filters, type: event.target.value as ImageTypeFilter })}>
            {IMAGE_TYPE_FILTERS.map((type) => (
              <option key={type} value={type}>
                {IMAGE_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            role="switch"
            checked={filters.hideSmall}
            onChange={(event) => onFiltersChange({ ...filters, hideSmall: event.target.checked })}
            className="h-4 w-4 accent-brand-primary"
          />
          Hide small images
        </label>
      </div>

      <div className="flex items-center justify-between">
        <h1 className="text-base font-semibold" aria-live="polite" data-testid="image-count">
          {found
            ? countOf(found.size, "image matches", "images match")
            : filtered.length === images.length
              ? countOf(images.length, "image", "images")
              : `${filtered.length} of ${images.length} images`}
        </h1>
        {selected.size > 0 && (
          <button type="button" onClick={onClearSelection} className="text-sm font-medium text-blue-700 hover:underline focus-ring">
            Clear selection ({selected.size})
          </button>
        )}
      </div>

      {visible === 0 && (
        <p className="rounded-lg bg-white p-4 text-sm text-gray-600 shadow-sm">
          {images.length === 0
            ? "No images found on this page yet."
            : found
              ? find.read < find.total
                ? `No image read so far shows these words.${find.mode === "reading" ? " More are being read." : " Continue reading to search the rest."}`
                : "No image shows all these words. Try fewer or other words."
              : "No image matches these filters. Change the size or type, or show small images."}
        </p>
      )}
      <ul className="image-grid grid grid-cols-2 gap-3" aria-label="Images on this page" hidden={visible === 0}>
        {listed.map((image) => (
          <ImageCard
            key={image.url}
            image={image}
            selected={selected.has(image.url)}
            highlighted={highlighted === image.url}
            hidden={found !== null && !found.has(image.url)}
            reasons={found?.get(image.url) ?? null}
            onOpen={openCard}
            onToggleSelected={toggleCard}
            onShowOnPage={showCard}
          />
        ))}
      </ul>
    </div>
  )
}
