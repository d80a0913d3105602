// The interface every local analysis engine (OCR, faces, objects) implements, and the helpers
// they share: a time-out, a serial queue and load-once semantics.

/** What an engine reports while it starts: a stage in words and, when known, how far it is (0–1). */
export interface AnalysisProgress {
  stage: string
  fraction?: number
}

export type ProgressListener = (progress: AnalysisProgress) => void

/**
 * An image an engine can analyse in an extension page (side panel, tab pages): encoded bytes
 * (a Blob or File, e.g. fetched from a page or picked by the user), or decoded pixels
 * (an ImageBitmap, a canvas or an OffscreenCanvas).
 */
export type ImageSource = Blob | ImageBitmap | HTMLCanvasElement | OffscreenCanvas

/** A rectangle in pixels of the analysed image, top-left origin. */
export interface Box {
  x: number
  y: number
  width: number
  height: number
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high)

/**
 * A box in whole pixels, cut to the image (detectors can overshoot its edges). `scale` first
 * maps it from a shrunk copy the detector saw back to the image.
 */
export function clampBox(box: Box, imageWidth: number, imageHeight: number, scale = 1): Box {
  if (scale !== 1) box = { x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale }
  const x = clamp(Math.round(box.x), 0, imageWidth)
  const y = clamp(Math.round(box.y), 0, imageHeight)
  const right = clamp(Math.round(box.x + box.width), x, imageWidth)
  const bottom = clamp(Math.round(box.y + box.height), y, imageHeight)
  return { x, y, width: right - x, height: bottom - y }
}

/** `Options` are per run (e.g. which face detector); engines without any use the default `void`. */
export interface AnalysisEngine<Result, Options = void> {
  /** Stable identifier, e.g. "ocr". */
  readonly id: string
  /**
   * Starts the engine; later calls share the first start-up (and retry after a failure). With
   * `options`, also loads the models those options need, so that their progress is reported.
   */
  load(onProgress?: ProgressListener, options?: Options): Promise<void>
  /** Analyses one image, loading the engine (and models) first if needed; calls on one engine run one at a time. */
  run(image: ImageSource, options?: Options): Promise<Result>
  /** Frees the engine's worker and memory; a later load() starts it again. */
  dispose(): Promise<void>
}

/**
 * An absolute URL for a folder of the extension. Inside extension pages a root-relative path
 * would do too (e.g. tesseract.js resolves it against the page), but the worker and the WebAssembly
 * core then resolve their own relative loads against the worker script, so absolute is clearer.
 */
export function extensionUrl(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path)) return path.replace(/\/$/, "")
  const absolute = path.startsWith("/") ? path : `/${path}`
  if (typeof chrome !== "undefined" && chrome.runtime?.getURL) return chrome.runtime.getURL(absolute).replace(/\/$/, "")
  return new URL(absolute, globalThis.location.href).href.replace(/\/$/, "")
}

export class AnalysisTimeoutError extends Error {
  override readonly name = "AnalysisTimeoutError"
}

/** Settles like `promise`, or rejects with `new AnalysisTimeoutError(message)` after `ms` milliseconds. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnalysisTimeoutError(message)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Runs tasks one after another in the order they were queued; a failed task does not stop the queue. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve()
  private waiting = 0

  /** Tasks queued or running. */
  get size(): number {
    return this.waiting
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.waiting += 1
    const result = this.tail.then(task).finally(() => {
      this.waiting -= 1
    })
    this.tail = result.catch(() => undefined)
    return result
  }
}

/**
 * Load-once bookkeeping for an engine: the first `load()` starts `start`, concurrent and later
 * calls share its promise, a failed start is forgotten so the next call tries again, and
 * progress goes to every listener that asked while the start-up was running.
 */
export class OnceLoader<Handle> {
  private pending: Promise<Handle> | null = null
  private listeners = new Set<ProgressListener>()

  constructor(private readonly start: (report: ProgressListener) => Promise<Handle>) {}

  get started(): boolean {
    return this.pending !== null
  }

  load(onProgress?: ProgressListener): Promise<Handle> {
    if (onProgress) this.listeners.add(onProgress)
    if (!this.pending) {
      const attempt = this.start((progress) => this.listeners.forEach((listener) => listener(progress)))
      this.pending = attempt
      attempt.then(
        () => this.listeners.clear(),
        () => {
          this.listeners.clear()
          if (this.pending === attempt) this.pending = null
        }
      )
    }
    return this.pending
  }

  /** Forgets the loaded handle and returns it (if it had loaded) for the caller to free. */
  async reset(): Promise<Handle | null> {
    const pending = this.pending
    this.pending = null
    this.listeners.clear()
    if (!pending) return null
    return pending.catch(() => null)
  }
}

/** Encoded bytes for engines that read files: a Blob stays as it is, pixels are encoded as PNG. */
export async function toBlob(image: ImageSource): Promise<Blob> {
  if (image instanceof Blob) return image
  if (typeof HTMLCanvasElement !== "undefined" && image instanceof HTMLCanvasElement) {
    return new Promise<Blob>((resolve, reject) =>
      image.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("The image could not be read."))), "image/png")
    )
  }
  if (typeof OffscreenCanvas !== "undefined" && image instanceof OffscreenCanvas) return image.convertToBlob({ type: "image/png" })
  const canvas = new OffscreenCanvas(image.width, image.height)
  const context = canvas.getContext("2d")
  if (!context) throw new Error("The image could not be read.")
  context.drawImage(image, 0, 0)
  return canvas.convertToBlob({ type: "image/png" })
}
