/**
 * The pixels of a page's image, read without tainted canvases: the extension fetches http(s) and data: URLs
 * itself (its host permissions lift CORS), and asks the frame's page index for blob: URLs.
 *
 * A page chooses these addresses, so every read is bounded: no cookie or other credential goes with it
 * (`credentials: "omit"`; the panel shows these bytes, never a live address of the page), an address on the person's
 * private network is refused for a public page (image-address.ts), at most MAX_ANALYSED_IMAGE_BYTES of a body is read
 * (then the request is cancelled and its connection closed), and a picture whose header declares more than
 * MAX_DECODED_IMAGE_PIXELS is refused before anything decodes it.
 */
import { MAX_PAGE_BLOB_BYTES, READ_PAGE_BLOB_REQUEST, type ReadPageBlobRequest, type ReadPageBlobResponse } from "~extension/messaging/messages"
import { imageDimensions, RASTER_SIGNATURE_BYTES, rasterTypeOf, type ImageDimensions } from "~core/images/image-dimensions"
import { MAX_IMAGE_BYTES, VQA_IMAGE_TYPES } from "~core/analysis/vqa"
import { blobToDataUrl } from "~extension/in-page/data-url"

import { guardImageRequest } from "./image-address"
import { indexFrame } from "./page-frames"

/** Reading an image may take this long before the user is told it failed. */
export const IMAGE_READ_TIMEOUT_MS = 20_000
/** Images larger than this are refused before any analysis (a page's image of 25 MB is not a photo to analyse). */
export const MAX_ANALYSED_IMAGE_BYTES = MAX_PAGE_BLOB_BYTES
/**
 * The most pixels an image may declare to be opened: 50 megapixels, the largest camera photos (45 to 50 MP) and long
 * panoramas. Decoded, one copy takes 4 bytes a pixel (200 MB here), and the panel may hold three at once (the list's
 * picture, the view's, the engine's); a few kilobytes of PNG can declare 10,000 megapixels, which no tab survives.
 */
export const MAX_DECODED_IMAGE_PIXELS = 50_000_000
/** Longest side of an image sent to the vision model; larger ones are scaled down first. */
export const VQA_MAX_SIDE_PX = 2048

export const IMAGE_TOO_LARGE_MESSAGE = `The image is larger than ${MAX_ANALYSED_IMAGE_BYTES / (1024 * 1024)} MB and cannot be analysed.`
export const IMAGE_SIZE_UNREADABLE_MESSAGE = "The image's size could not be read from the file, so it was not opened. It may be damaged."
const formatted = (count: number) => count.toLocaleString("en")
export const tooManyPixelsMessage = ({ width, height }: ImageDimensions) =>
  `The image is too large to open: ${formatted(width)} × ${formatted(height)} pixels (the panel opens images up to ${MAX_DECODED_IMAGE_PIXELS / 1_000_000} megapixels).`

export class ImageReadError extends Error {
  override readonly name = "ImageReadError"
}

const RASTER_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"])

export interface ImageLocation {
  url: string
  tabId?: number
  frameId?: number
  /** The page the image was listed from, when known: it must let the panel load the image, as the tab's page now must. */
  pageUrl?: string
}

async function readBlobUrl({ url, tabId, frameId }: ImageLocation): Promise<Blob> {
  if (tabId === undefined) throw new ImageReadError("This image belongs to a page that is no longer open.")
  const request: ReadPageBlobRequest = { type: READ_PAGE_BLOB_REQUEST, url }
  let answer: ReadPageBlobResponse | undefined
  try {
    // An image picked from the page's menu or button may come before the panel listed (and so indexed) the page.
    await indexFrame(tabId, frameId ?? 0)
    answer = (await chrome.tabs.sendMessage(tabId, request, { frameId: frameId ?? 0 })) as ReadPageBlobResponse | undefined
  } catch {
    answer = undefined
  }
  if (!answer) throw new ImageReadError("The page no longer answers. Reload it and try again.")
  if ("error" in answer) throw new ImageReadError(answer.error)
  return (await fetch(answer.dataUrl)).blob()
}

/** The pages an image was named by: the one it was listed from, and its tab's page now. */
async function namingPages({ tabId, pageUrl }: ImageLocation): Promise<string[]> {
  const pages = pageUrl ? [pageUrl] : []
  if (tabId !== undefined) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined)
    if (tab?.url) pages.push(tab.url)
  }
  return pages
}

/** At most `maxBytes` of the body: past them, reading stops and the request is cancelled (its connection closes). */
async function readBounded(response: Response, maxBytes: number): Promise<Blob> {
  // The type without its parameters, as the engines and the vision model name types.
  const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()
  const declared = Number(response.headers.get("content-length") ?? Number.NaN)
  if (declared > maxBytes) throw new ImageReadError(IMAGE_TOO_LARGE_MESSAGE)
  const reader = response.body?.getReader()
  const chunks: Uint8Array<ArrayBuffer>[] = []
  let size = 0
  for (;;) {
    const chunk = reader ? await reader.read() : { done: true as const, value: undefined }
    if (chunk.done) break
    size += chunk.value.byteLength
    if (size > maxBytes) {
      void reader!.cancel().catch(() => undefined)
      throw new ImageReadError(IMAGE_TOO_LARGE_MESSAGE)
    }
    chunks.push(chunk.value)
  }
  return new Blob(chunks, { type })
}

/** An http(s) or data: image, by the rules at the top of this module. */
async function download(location: ImageLocation, fetchImpl: typeof fetch, priority: RequestPriority): Promise<Blob> {
  const url = URL.parse(location.url)
  if (!url) throw new ImageReadError("This kind of image address cannot be read.")
  const network = url.protocol === "data:" ? null : await guardImageRequest(url, await namingPages(location))
  if (network && "refused" in network) throw new ImageReadError(network.refused)
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), IMAGE_READ_TIMEOUT_MS)
  try {
    const response = await fetchImpl(url.href, { credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer", priority, signal: controller.signal })
    const refused = await network?.guard.checkAnswer(response)
    if (refused) throw new ImageReadError(refused)
    if (!response.ok) throw new ImageReadError(`The image could not be downloaded (the site answered ${response.status}).`)
    return await readBounded(response, MAX_ANALYSED_IMAGE_BYTES)
  } catch (error) {
    if (error instanceof ImageReadError) throw error
    throw new ImageReadError(controller.signal.aborted ? "Downloading the image took too long." : "The image could not be downloaded. Check your connection and try again.")
  } finally {
    clearTimeout(timer)
    // Nothing more is read: a refused or cut answer's connection is closed now (after a whole body, this does nothing).
    controller.abort()
  }
}

/** Refuses, before any decoding, a picture whose header declares more pixels than the panel opens. */
async function checkDecodedSize(blob: Blob): Promise<void> {
  const read = async (position: number, length: number) => new Uint8Array(await blob.slice(position, position + length).arrayBuffer())
  const type = rasterTypeOf(await read(0, RASTER_SIGNATURE_BYTES))
  // Not a raster format a browser decodes: SVG is drawn at the size the panel asks, anything else fails to decode.
  if (!type) return
  const size = await imageDimensions(type, read)
  if (!size) throw new ImageReadError(IMAGE_SIZE_UNREADABLE_MESSAGE)
  if (size.width * size.height > MAX_DECODED_IMAGE_PIXELS) throw new ImageReadError(tooManyPixelsMessage(size))
}

/**
 * The image's bytes, or an ImageReadError saying in plain words why not. `priority` "low" for the list's thumbnails:
 * a long list's downloads must not hold up the image being analysed.
 */
export async function readImage(location: ImageLocation, fetchImpl: typeof fetch = fetch, priority: RequestPriority = "auto"): Promise<Blob> {
  const { url } = location
  let blob: Blob
  if (url.startsWith(`blob:${globalThis.location?.origin}/`)) {
    // The panel's own (a pasted or dropped file): it can read it itself.
    blob = await (await fetchImpl(url)).blob()
  } else if (url.startsWith("blob:")) {
    blob = await readBlobUrl(location)
  } else if (/^(https?|data):/i.test(url)) {
    blob = await download(location, fetchImpl, priority)
  } else {
    throw new ImageReadError("This kind of image address cannot be read.")
  }
  if (blob.size === 0) throw new ImageReadError("The image is empty.")
  if (blob.size > MAX_ANALYSED_IMAGE_BYTES) throw new ImageReadError(IMAGE_TOO_LARGE_MESSAGE)
  await checkDecodedSize(blob)
  return blob
}

async function decode(blob: Blob): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(blob)
  const image = new Image()
  image.src = url
  try {
    await image.decode()
    return image
  } catch {
    throw new ImageReadError("The file is not an image this browser can show.")
  } finally {
    URL.revokeObjectURL(url)
  }
}

/** The image drawn at most `maxSide` pixels a side, encoded as `type`. */
async function redraw(image: HTMLImageElement, maxSide: number, type: "image/png" | "image/jpeg"): Promise<Blob> {
  const scale = Math.min(1, maxSide / Math.max(image.naturalWidth, image.naturalHeight))
  const width = Math.max(1, Math.round(image.naturalWidth * scale))
  const height = Math.max(1, Math.round(image.naturalHeight * scale))
  const canvas = new OffscreenCanvas(width, height)
  const context = canvas.getContext("2d")
  if (!context) throw new ImageReadError("The image could not be prepared.")
  if (type === "image/jpeg") {
    context.fillStyle = "#ffffff"
    context.fillRect(0, 0, width, height)
  }
  context.drawImage(image, 0, 0, width, height)
  return canvas.convertToBlob({ type, quality: 0.9 })
}

/** The local engines read common raster formats; SVG and the like are drawn to PNG first. */
export async function toRasterBlob(blob: Blob): Promise<Blob> {
  return RASTER_TYPES.has(blob.type) ? blob : redraw(await decode(blob), 4096, "image/png")
}

/** A data: URL the vision model accepts: a supported type, at most VQA_MAX_SIDE_PX a side and MAX_IMAGE_BYTES. */
export async function toVqaDataUrl(blob: Blob): Promise<string> {
  const supported = (VQA_IMAGE_TYPES as readonly string[]).includes(blob.type)
  const image = await decode(blob)
  const fits = supported && blob.size <= MAX_IMAGE_BYTES / 2 && Math.max(image.naturalWidth, image.naturalHeight) <= VQA_MAX_SIDE_PX
  return blobToDataUrl(fits ? blob : await redraw(image, VQA_MAX_SIDE_PX, "image/jpeg"))
}

/** The image turned `degrees` clockwise, as PNG (text found turned on its side is read upright). */
export async function turnClockwise(blob: Blob, degrees: 90 | 180 | 270): Promise<Blob> {
  const image = await decode(blob)
  const { naturalWidth: width, naturalHeight: height } = image
  const sideways = degrees !== 180
  const canvas = new OffscreenCanvas(sideways ? height : width, sideways ? width : height)
  const context = canvas.getContext("2d")
  if (!context) throw new ImageReadError("The image could not be prepared.")
  // Moves the turned image back onto the canvas: each quarter turn swings it about the top-left corner.
  const origin = { 90: [height, 0], 180: [width, height], 270: [0, width] }[degrees]
  context.translate(origin[0]!, origin[1]!)
  context.rotate((degrees * Math.PI) / 180)
  context.drawImage(image, 0, 0)
  return canvas.convertToBlob({ type: "image/png" })
}
