/**
 * Where the on-image button goes and which images get it: pure geometry and the show rule, read by the button's
 * events (image-button.ts) and tested without a page.
 */
import { isHiddenAsSmall, type ImageDimensions } from "~core/images/image-size"

import { isAnalysableImageUrl } from "./image-url"
import { isOwnNode } from "./own-nodes"

/** Gap between the button and the image's visible edges. */
export const BUTTON_INSET_PX = 8
export const BUTTON_HEIGHT_PX = 32
/** Icon only, for images too narrow for the label. */
export const COMPACT_BUTTON_SIZE = { width: BUTTON_HEIGHT_PX, height: BUTTON_HEIGHT_PX } as const
/** Below this rendered size the button would hide the image it is about. */
export const MIN_RENDERED_SIZE = {
  width: COMPACT_BUTTON_SIZE.width + 2 * BUTTON_INSET_PX,
  height: COMPACT_BUTTON_SIZE.height + 2 * BUTTON_INSET_PX
} as const

/** Between the button and the *Translate image* button at its left. */
export const COMPANION_GAP_PX = 4
/** The note that says why a click was refused: at most this wide, this far from the button and the viewport's edges. */
export const NOTE_MAX_WIDTH_PX = 280
export const NOTE_GAP_PX = 6

/** What the button needs to know about the image and the page's viewport (a DOMRect fits). */
export interface ViewportRect {
  left: number
  top: number
  right: number
  bottom: number
}

export interface Placement {
  /** Viewport coordinates of the button's top-left corner. */
  x: number
  y: number
  compact: boolean
}

/**
 * Where the button goes: the top-right corner of the image's visible part (so it stays on screen
 * while the image is partly scrolled away), inset a little; icon only when the labelled button
 * (`fullWidth` wide, which depends on the fonts) does not fit; null when not even the icon fits.
 */
export function placeButton(image: ViewportRect, viewport: ImageDimensions, fullWidth: number): Placement | null {
  const left = Math.max(image.left, 0)
  const top = Math.max(image.top, 0)
  const right = Math.min(image.right, viewport.width)
  const bottom = Math.min(image.bottom, viewport.height)
  const sizes = [
    [{ width: fullWidth, height: BUTTON_HEIGHT_PX }, false],
    [COMPACT_BUTTON_SIZE, true]
  ] as const
  for (const [size, compact] of sizes) {
    if (right - left >= size.width + 2 * BUTTON_INSET_PX && bottom - top >= size.height + 2 * BUTTON_INSET_PX) {
      return { x: Math.round(right - BUTTON_INSET_PX - size.width), y: Math.round(top + BUTTON_INSET_PX), compact }
    }
  }
  return null
}

/**
 * Where the *Translate image* button goes: icon-sized, just left of the button, when the image's visible part has
 * room for it there (x of its top-left corner), else null. The button itself keeps its corner.
 */
export function placeCompanion(image: ViewportRect, button: Placement): number | null {
  const x = button.x - COMPANION_GAP_PX - COMPACT_BUTTON_SIZE.width
  return x >= Math.max(image.left, 0) + BUTTON_INSET_PX ? x : null
}

/**
 * Where the note saying why a click was refused goes (its top-left corner): under the button, its right edge in line
 * with the button's, kept inside the viewport; above the button when there is no room under it.
 */
export function placeNote(button: ViewportRect, note: ImageDimensions, viewport: ImageDimensions): { x: number; y: number } {
  const x = Math.max(NOTE_GAP_PX, Math.min(button.right - note.width, viewport.width - NOTE_GAP_PX - note.width))
  const below = button.bottom + NOTE_GAP_PX
  const y = below + note.height <= viewport.height - NOTE_GAP_PX ? below : Math.max(NOTE_GAP_PX, button.top - NOTE_GAP_PX - note.height)
  return { x: Math.round(x), y: Math.round(y) }
}

/**
 * The button is offered on the images the side panel lists by default: loaded, and not small by
 * the core rule ('Hide small images', either side under 400 px, on the intrinsic size). The
 * rendered size must also leave room for the button, or it would cover the whole image.
 */
export function isLargeEnoughForButton(natural: ImageDimensions, rendered: ImageDimensions): boolean {
  return isLoadedAndNotSmall(natural) && leavesRoomForButton(rendered)
}

function isLoadedAndNotSmall(natural: ImageDimensions): boolean {
  return natural.width > 0 && natural.height > 0 && !isHiddenAsSmall(natural)
}

function leavesRoomForButton(rendered: ImageDimensions): boolean {
  return rendered.width >= MIN_RENDERED_SIZE.width && rendered.height >= MIN_RENDERED_SIZE.height
}

export function imageUrlOf(image: HTMLImageElement): string {
  return image.currentSrc || image.src
}

/**
 * Everything that names the picture an image shows: its src and srcset as written and the address it loaded. Taken
 * when the button appears and compared at the click, so that a page cannot swap the picture as the button is pressed.
 */
export function imageAddressOf(image: HTMLImageElement): string {
  return [image.getAttribute("src"), image.getAttribute("srcset"), image.currentSrc].join("\n")
}

/**
 * The one rule for showing the button over an image: an address the side panel can load, not one of our own
 * elements, and isLargeEnoughForButton. The intrinsic size costs no layout, so it is read before the rendered box.
 */
export function isButtonTarget(image: HTMLImageElement): boolean {
  if (isOwnNode(image) || !isAnalysableImageUrl(imageUrlOf(image))) return false
  if (!isLoadedAndNotSmall({ width: image.naturalWidth, height: image.naturalHeight })) return false
  return leavesRoomForButton(image.getBoundingClientRect())
}
