// One TensorFlow.js runtime for the faces and objects engines: the WebAssembly backend, started
// once from the files scripts/copy-extension-assets.mjs ships in engines/tfjs/. face-api and
// Human are imported as their esm-nobundle builds, which use this same @tensorflow/tfjs-core, so
// both engines share its backend and memory. Everything is imported dynamically: pages that never
// analyse faces or objects (the popup, the side panel's first paint) do not load tfjs at all.
import type * as TfCore from "@tensorflow/tfjs-core"

import type { ImageSource } from "./engine"
import { extensionUrl } from "./engine"

export type Tf = typeof TfCore

/** Folder of tfjs-backend-wasm.wasm and tfjs-backend-wasm-simd.wasm inside the extension. */
export const TFJS_WASM_FOLDER = "/engines/tfjs"

let starting: Promise<Tf> | null = null

/** The wasm files' folder as tfjs wants it: an absolute URL ending in a slash. */
export const tfjsWasmPrefix = () => `${extensionUrl(TFJS_WASM_FOLDER)}/`

/**
 * Starts tfjs on the WebAssembly backend (once; a failed start is retried by the next call).
 * Single-threaded: the threaded build needs blob workers, which MV3 extension pages refuse, and
 * the flag has to be set before the backend starts or tfjs picks the threaded build itself.
 */
export function startTfjs(): Promise<Tf> {
  if (!starting) {
    const attempt = (async () => {
      const [tf, wasm] = await Promise.all([import("@tensorflow/tfjs-core"), import("@tensorflow/tfjs-backend-wasm")])
      tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false)
      wasm.setWasmPaths(tfjsWasmPrefix())
      if (tf.getBackend() !== "wasm" && !(await tf.setBackend("wasm"))) throw new Error("The WebAssembly backend of tfjs did not start.")
      await tf.ready()
      return tf
    })()
    starting = attempt
    attempt.catch(() => {
      if (starting === attempt) starting = null
    })
  }
  return starting
}

/** Pixels of an image tfjs can read: a Blob is decoded, an OffscreenCanvas copied into a bitmap. */
export async function decodeImage(image: ImageSource): Promise<{ pixels: ImageBitmap | HTMLCanvasElement; owned: boolean }> {
  if (typeof HTMLCanvasElement !== "undefined" && image instanceof HTMLCanvasElement) return { pixels: image, owned: false }
  if (typeof ImageBitmap !== "undefined" && image instanceof ImageBitmap) return { pixels: image, owned: false }
  try {
    return { pixels: await createImageBitmap(image), owned: true }
  } catch (error) {
    throw new Error("The image could not be read. It may be damaged or in a format the browser cannot show.", { cause: error })
  }
}

/**
 * The image as an int32 [height, width, 3] tensor (the caller disposes it), shrunk first so that
 * its longer side is at most `maxSide`: the detectors look at 416–512 pixels anyway, and a full
 * photo costs tens of megabytes of copies per run. `scale` turns the tensor's pixels back into
 * the image's (`width` and `height` are the image's own).
 */
export async function imageTensor(
  tf: Tf,
  image: ImageSource,
  maxSide = Infinity
): Promise<{ tensor: TfCore.Tensor3D; width: number; height: number; scale: number }> {
  const { pixels, owned } = await decodeImage(image)
  let resized: ImageBitmap | null = null
  try {
    const { width, height } = pixels
    if (width === 0 || height === 0) throw new Error("The image is empty.")
    const scale = Math.max(1, Math.max(width, height) / maxSide)
    if (scale > 1) {
      resized = await createImageBitmap(pixels, {
        resizeWidth: Math.max(1, Math.round(width / scale)),
        resizeHeight: Math.max(1, Math.round(height / scale)),
        resizeQuality: "high"
      })
    }
    return { tensor: tf.browser.fromPixels(resized ?? pixels), width, height, scale }
  } finally {
    resized?.close()
    if (owned) (pixels as ImageBitmap).close()
  }
}
