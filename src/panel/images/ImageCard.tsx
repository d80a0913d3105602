/**
 * One image of the Images list. Memoised: a keystroke in Find in images or an image read re-renders only the cards
 * whose data changed, and cards the search leaves out are hidden, not removed, so clearing the search shows the
 * whole list again without rebuilding it; off-screen cards skip rendering (content-visibility) until scrolled to
 * (bench/find-in-images.ts measures both).
 */
import { memo } from "react"

import type { MatchReason } from "../find/image-search"
import { MatchReasons } from "../find/MatchReasons"
import { ShownImage } from "./ShownImage"
import type { PanelImage } from "./tab-images"

export interface ImageCardProps {
  image: PanelImage
  selected: boolean
  highlighted: boolean
  /** Left out by the search. */
  hidden: boolean
  /** Why the search found it; null without a search. */
  reasons: readonly MatchReason[] | null
  /** Stable across renders (the list passes its own), so an unchanged card is not rendered again. */
  onOpen: (image: PanelImage) => void
  onToggleSelected: (url: string) => void
  onShowOnPage: (image: PanelImage) => Promise<boolean>
}

export const ImageCard = memo(function ImageCard({ image, selected, highlighted, hidden, reasons, onOpen, onToggleSelected, onShowOnPage }: ImageCardProps) {
  return (
    <li
      data-url={image.url}
      hidden={hidden}
      aria-current={highlighted ? "true" : undefined}
      className={`relative overflow-hidden rounded-lg border bg-white shadow-sm [contain-intrinsic-size:auto_9rem] [content-visibility:auto] ${selected ? "border-brand-primary ring-2 ring-brand-primary" : highlighted ? "border-blue-300 ring-2 ring-blue-200" : "border-gray-200"}`}
    >
      <button type="button" onClick={() => onOpen(image)} className="block w-full text-left focus-ring focus-visible:-outline-offset-2">
        <ShownImage image={image} alt={image.alt || "Image without description"} loading="lazy" className="h-28 w-full bg-gray-100 object-contain" />
        <p className="px-2 py-1 text-xs text-gray-600">
          {image.source === "captured" && `${image.alt} · `}
          {image.width} × {image.height}
        </p>
      </button>
      <label className="absolute right-1.5 top-1.5 flex h-7 w-7 items-center justify-center rounded-md bg-white/90 shadow">
        <input type="checkbox" checked={selected} onChange={() => onToggleSelected(image.url)} className="h-4 w-4 accent-brand-primary" aria-label={`Select ${image.alt || "image"} for chat`} />
      </label>
      {reasons && <MatchReasons reasons={reasons} onShowOnPage={image.source === "captured" ? undefined : () => onShowOnPage(image)} />}
    </li>
  )
})
