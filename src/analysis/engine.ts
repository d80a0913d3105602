// The interface every local analysis engine (OCR, faces, objects) implements, and `defineEngine`,
// which builds one from the engine's own steps: it adds the load-once start-up with its time-out,
// the serial queue of runs, the run time-out and the freeing of what is no longer used.
import { withTimeout } from "~core/with-timeout"

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

/** What callers may change of an engine's time-outs (each engine has its defaults). */
export interface EngineTimeouts {
  /** How long starting the engine (and loading a model it needs) may take. */
  startTimeoutMs?: number
  /** How long the engine's work on one image may take. */
  runTimeoutMs?: number
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

/** Settles like `work`, or rejects when it takes longer than the engine allows (see `EngineSteps`). */
export type InTime = <T>(work: Promise<T>) => Promise<T>

const ignoreProgress: ProgressListener = () => {}

/**
 * What is an engine's own: how it starts, frees, prepares and runs its library, and its words. The
 * rest (load once, the time-outs, one run at a time, freeing a late start) comes from `defineEngine`.
 */
export interface EngineSteps<Handle, Result, Options = void> {
  id: string
  /** Starts the library and answers what runs need (a worker, the loaded modules). */
  start(report: ProgressListener): Promise<Handle>
  /** A start that takes longer is given up; its handle is freed when it arrives. */
  startTimeoutMs: number
  /** The error of a start that failed or took too long (the cause is kept). */
  startFailedMessage: string
  /** Frees a handle: on dispose, after a start that came too late, and when a failed run replaces it. */
  free(handle: Handle): void | Promise<unknown>
  /** Fills in defaults of the options and refuses those the engine cannot take, for load and run alike. */
  resolveOptions?(options: Options | undefined): Options
  /**
   * Loads what these options need beyond the start (e.g. one model per option), before `load`
   * answers and before each run. `inTime` gives a piece of that work the start's time-out and message.
   */
  prepare?(handle: Handle, options: Options, report: ProgressListener, inTime: InTime): Promise<void>
  /** Analyses one image; `inTime` marks the library's own work, which gets the run time-out. */
  run(handle: Handle, image: ImageSource, options: Options, inTime: InTime): Promise<Result>
  runTimeoutMs: number
  /** The error of a run whose library work took too long. */
  runFailedMessage: string
  /**
   * A handle whose work failed or timed out in a run is freed and started afresh on the next run
   * (for a worker that may be stuck or crashed). An image that could not be read keeps the handle.
   */
  replaceAfterFailedRun?: boolean
}

/** An engine from its own steps: see `EngineSteps` for what each one does and what is added. */
export function defineEngine<Handle, Result, Options = void>(steps: EngineSteps<Handle, Result, Options>): AnalysisEngine<Result, Options> {
  const queue = new SerialQueue()
  const resolveOptions = steps.resolveOptions ?? ((options: Options | undefined) => options as Options)

  const asStartFailure = (error: unknown) =>
    error instanceof Error && error.message === steps.startFailedMessage ? error : new Error(steps.startFailedMessage, { cause: error })

  const inStartTime: InTime = (work) =>
    withTimeout(work, steps.startTimeoutMs, steps.startFailedMessage).catch((error: unknown) => {
      throw asStartFailure(error)
    })

  const free = async (handle: Handle) => steps.free(handle)

  const loader = new OnceLoader<Handle>(async (report) => {
    // A start given up on reports nothing more: its progress would mix with the next attempt's.
    let givenUp = false
    // Called inside a promise so that a step that throws at once fails like one that rejects.
    const starting = new Promise<Handle>((resolve) => {
      resolve(
        steps.start((progress) => {
          if (!givenUp) report(progress)
        })
      )
    })
    try {
      return await inStartTime(starting)
    } catch (error) {
      givenUp = true
      void starting.then(free).catch(() => {})
      throw error
    }
  })

  async function prepared(options: Options, onProgress?: ProgressListener): Promise<Handle> {
    const handle = await loader.load(onProgress)
    await steps.prepare?.(handle, options, onProgress ?? ignoreProgress, inStartTime)
    return handle
  }

  async function runOnce(image: ImageSource, options: Options): Promise<Result> {
    const handle = await prepared(options)
    let engineFailed = false
    const inRunTime: InTime = (work) =>
      withTimeout(work, steps.runTimeoutMs, steps.runFailedMessage).catch((error: unknown) => {
        engineFailed = true
        throw error
      })
    try {
      return await steps.run(handle, image, options, inRunTime)
    } catch (error) {
      if (steps.replaceAfterFailedRun && engineFailed) {
        const stale = await loader.reset()
        if (stale !== null) void free(stale).catch(() => {})
      }
      throw error
    }
  }

  return {
    id: steps.id,
    load: async (onProgress, options) => {
      await prepared(resolveOptions(options), onProgress)
    },
    run: (image, options) => queue.run(() => runOnce(image, resolveOptions(options))),
    dispose: () =>
      queue.run(async () => {
        const handle = await loader.reset()
        if (handle !== null) await free(handle)
      })
  }
}
