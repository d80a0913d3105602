/**
 * Capturing an area of a page: what the overlay on the page answers, how that area becomes pixels of the tab's
 * screenshot, and the capture's state, which the service worker writes and the side panel follows (the panel may
 * only be opening when a capture started from the keyboard or the page's menu ends).
 */
import * as z from "zod"

import { sessionItem } from "../storage/storage-item"

/** Smaller drags are refused: a click, or a slip of the mouse, is not an area to analyse. */
export const MIN_AREA_SIDE_CSS_PX = 8

/** The longest data: URL kept for a captured area (chrome.storage.session holds 10 MB for everything). */
export const MAX_CAPTURED_AREA_URL_LENGTH = 4 * 1024 * 1024

export const CAPTURE_NOT_ALLOWED_MESSAGE = "This page cannot be captured. Open a regular web page and try again."
export const CAPTURE_FAILED_MESSAGE = "The area could not be captured. Try again."
export const CAPTURED_AREA_TOO_LARGE_MESSAGE = "That area is too large to keep. Capture a smaller area."
export const CAPTURED_AREA_NAME = "Captured area"

/** A rectangle in CSS pixels of the viewport. */
export interface Area {
  x: number
  y: number
  width: number
  height: number
}

/** What the page's overlay answers once the user releases the mouse over an area. */
export interface SelectedArea {
  area: Area
  /** window.innerWidth and innerHeight when the area was chosen: the screenshot covers exactly this. */
  viewport: { width: number; height: number }
  devicePixelRatio: number
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)
const positive = (value: unknown): value is number => finite(value) && value > 0

/** The overlay's answer when it names an area large enough and inside the viewport; null otherwise (cancelled). */
export function parseSelectedArea(raw: unknown): SelectedArea | null {
  if (typeof raw !== "object" || raw === null) return null
  const { area, viewport, devicePixelRatio } = raw as Partial<Record<keyof SelectedArea, Record<string, unknown>>>
  if (!area || !viewport || !positive(devicePixelRatio)) return null
  const { x, y, width, height } = area
  if (!finite(x) || !finite(y) || !finite(width) || !finite(height) || !positive(viewport.width) || !positive(viewport.height)) return null
  if (width < MIN_AREA_SIDE_CSS_PX || height < MIN_AREA_SIDE_CSS_PX) return null
  if (x < 0 || y < 0 || x + width > viewport.width + 1 || y + height > viewport.height + 1) return null
  return { area: { x, y, width, height }, viewport: { width: viewport.width, height: viewport.height }, devicePixelRatio }
}

/**
 * The area in pixels of the screenshot, whole pixels inside it. The screenshot has the device's pixels (CSS pixels
 * times the device pixel ratio, page zoom included): its width over the viewport's is that ratio as it was applied.
 */
export function cropBox({ area, viewport }: Pick<SelectedArea, "area" | "viewport">, shot: { width: number; height: number }): Area {
  const scaleX = shot.width / viewport.width
  const scaleY = shot.height / viewport.height
  const left = Math.max(0, Math.floor(area.x * scaleX))
  const top = Math.max(0, Math.floor(area.y * scaleY))
  const right = Math.min(shot.width, Math.ceil((area.x + area.width) * scaleX))
  const bottom = Math.min(shot.height, Math.ceil((area.y + area.height) * scaleY))
  return { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) }
}

const at = z.number()
const tabId = z.number().int()

const areaCaptureSchema = z.discriminatedUnion("state", [
  /** The overlay is on the page, waiting for a drag. */
  z.object({ state: z.literal("selecting"), tabId, at }),
  z.object({ state: z.literal("captured"), tabId, pageUrl: z.string().optional(), dataUrl: z.string(), width: z.number(), height: z.number(), at }),
  z.object({ state: z.literal("refused"), message: z.string(), at }),
  z.object({ state: z.literal("cancelled"), at })
])

export type AreaCapture = z.infer<typeof areaCaptureSchema>

export const areaCaptureItem = sessionItem("areaCapture", areaCaptureSchema)
