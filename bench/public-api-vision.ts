// The public API's local models through HTTP, as a customer's script calls them: POST /api/v1/ocr, /faces and
// /objects on a server started as `npm start` runs it, with its pool of VISION_THREADS=2 worker threads (the
// machine's two cores), against the bare libraries in this process on the same images in the same run.
//   - API, one at a time: each call's time from request to answer (upload, queue, decode, model, JSON).
//   - API, 4 calls at once (two running, two waiting): images per second, p50 and p99 of the calls.
//   - Bare: tesseract.js, face-api (SSD) and Human (CenterNet) called directly in one thread, one image at a time,
//     after sharp decodes it (the libraries cannot decode in Node): time per image and images per second.
// The ratios: the API's one-at-a-time call over the bare library's image (what HTTP and the pool cost), and the
// API's images per second on two threads over the bare library's on one (what the pool gains).
// Images: six rendered text pages for OCR; the hand-counted photos of bench/photos for faces and objects.
// Alone: node --import tsx bench/public-api-vision.ts
import fs from "node:fs/promises"
import { createRequire } from "node:module"
import os from "node:os"
import path from "node:path"

import type * as TfCore from "@tensorflow/tfjs-core"
import sharp from "sharp"
import { createWorker } from "tesseract.js"

import { DEFAULT_MIN_SCORES, humanConfig, SSD_MIN_CONFIDENCE } from "../src/core/analysis/detections"
import { handCountedPhotos, photoFile } from "./faces-objects"
import { median, runIfMain } from "./figures"
import { PASSWORD, post, subscribeToPro, verifiedAccount } from "./mixed-load"
import { startServer } from "./server-process"

const THREADS = 2
const CONCURRENCY = 4
/** Passes over each endpoint's images at CONCURRENCY. */
const ROUNDS = 3
/** Keys of the bench account: each allows 60 calls a minute, and the bench makes about 150 in two. */
const KEYS = 5

const require = createRequire(import.meta.url)

const OCR_PAGES = [
  ["INVOICE 2026-114", "TOTAL DUE 1,284.00 EUR", "PAYABLE WITHIN 30 DAYS"],
  ["The quick brown fox jumps", "over the lazy dog near", "the river bank at dawn"],
  ["Opening hours", "Monday to Friday 9:00-18:00", "Saturday 10:00-14:00"],
  ["WARNING: HIGH VOLTAGE", "Authorised staff only", "Call 555-0134 in emergency"],
  ["Recipe: lemon cake", "200 g flour, 3 eggs", "Bake 35 minutes at 180 C"],
  ["Gate B42 boarding 14:35", "Flight IQ 2026 to Lisbon", "Please have your pass ready"]
]

async function textPage(lines: string[]): Promise<Buffer> {
  const text = lines.map((line, index) => `<text x="30" y="${70 + index * 70}" font-family="sans-serif" font-size="42">${line}</text>`).join("")
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="260"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`))
    .png()
    .toBuffer()
}

const percentile = (values: number[], fraction: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(fraction * values.length) - 1)]!

type Endpoint = "ocr" | "faces" | "objects"

interface ApiFigures {
  oneAtATimeMs: number
  imagesPerSecond: number
  p50Ms: number
  p99Ms: number
}

async function measureApi(baseUrl: string, keys: string[], endpoint: Endpoint, images: Buffer[]): Promise<ApiFigures> {
  let turn = 0
  const call = async (image: Buffer) => {
    const started = performance.now()
    const response = await fetch(`${baseUrl}/api/v1/${endpoint}`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys[turn++ % keys.length]}`, "content-type": "application/json" },
      body: JSON.stringify({ image: { dataUrl: `data:image/${endpoint === "ocr" ? "png" : "jpeg"};base64,${image.toString("base64")}` } })
    })
    const body = (await response.json()) as { error?: { message: string } }
    if (!response.ok) throw new Error(`/api/v1/${endpoint} answered ${response.status}: ${body.error?.message}`)
    return performance.now() - started
  }
  // Both threads warm: each has loaded the endpoint's model.
  await Promise.all([call(images[0]!), call(images[1 % images.length]!)])
  const oneAtATime: number[] = []
  for (const image of images) oneAtATime.push(await call(image))

  const queue = Array.from({ length: ROUNDS }, () => images).flat()
  const latencies: number[] = []
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let image = queue.shift(); image; image = queue.shift()) latencies.push(await call(image))
    })
  )
  const seconds = (performance.now() - started) / 1000
  return { oneAtATimeMs: median(oneAtATime), imagesPerSecond: latencies.length / seconds, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) }
}

/** Each image once to warm, then the median of its time; `analyse` gets sharp's decoding of the image. */
async function timeBare(images: Buffer[], analyse: (image: Buffer) => Promise<unknown>): Promise<number> {
  await analyse(images[0]!)
  const times: number[] = []
  for (const image of images) {
    const started = performance.now()
    await analyse(image)
    times.push(performance.now() - started)
  }
  return median(times)
}

async function measureBare(pages: Buffer[], photos: Buffer[]): Promise<Record<Endpoint, number>> {
  // The server's English pack: the same model as the API reads with.
  const langPath = path.join(path.dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0_best_int")
  const worker = await createWorker("eng", 1, { langPath, gzip: true, cacheMethod: "none" })
  const ocr = await timeBare(pages, (page) => worker.recognize(page))
  await worker.terminate()

  const tf = require("@tensorflow/tfjs-core") as typeof TfCore
  require("@tensorflow/tfjs-backend-wasm")
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false)
  await tf.setBackend("wasm")
  const tensorOf = async (image: Buffer, side: number) => {
    const { data, info } = await sharp(image).resize({ width: side, height: side, fit: "inside" }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    return tf.tensor3d(Int32Array.from(data), [info.height, info.width, 3], "int32")
  }
  const faceApi = require("@vladmandic/face-api/dist/face-api.node-wasm.js")
  await faceApi.nets.ssdMobilenetv1.loadFromDisk(path.join(path.dirname(require.resolve("@vladmandic/face-api/package.json")), "model"))
  const faces = await timeBare(photos, async (photo) => {
    const tensor = await tensorOf(photo, 512)
    await faceApi.detectAllFaces(tensor, new faceApi.SsdMobilenetv1Options({ minConfidence: SSD_MIN_CONFIDENCE }))
    tensor.dispose()
  })

  const humanDir = path.resolve(path.dirname(require.resolve("@vladmandic/human")), "..")
  const networkFetch = globalThis.fetch
  globalThis.fetch = (async (input: string) => new Response(await fs.readFile(new URL(String(input))))) as typeof fetch
  const { Human } = require(path.join(humanDir, "dist/human.node-wasm.js"))
  const human = new Human(humanConfig({ modelBasePath: `file://${path.join(humanDir, "models")}/`, wasmPath: "", minScores: DEFAULT_MIN_SCORES }))
  await human.load()
  globalThis.fetch = networkFetch
  const objects = await timeBare(photos, async (photo) => {
    const tensor = await tensorOf(photo, 1024)
    await human.detect(tensor)
    tensor.dispose()
  })
  return { ocr, faces, objects }
}

export async function measurePublicApiVision(): Promise<{ lines: string[]; figures: Record<Endpoint, ApiFigures & { bareMs: number }> }> {
  const pages = await Promise.all(OCR_PAGES.map(textPage))
  const photos = await Promise.all(handCountedPhotos().map((photo) => fs.readFile(photoFile(photo))))
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-bench-vision-"))
  const server = await startServer(dataDir, { TRUST_PROXY: "1", VISION_THREADS: String(THREADS) })
  const api = {} as Record<Endpoint, ApiFigures>
  try {
    const email = "bench-api@example.com"
    const token = await verifiedAccount(server.baseUrl, [dataDir], email)
    await subscribeToPro(server.baseUrl, token, email)
    const keys: string[] = []
    for (let index = 0; index < KEYS; index++) keys.push((await post(server.baseUrl, "/api/keys", { name: `bench ${index}`, currentPassword: PASSWORD }, token)).key as string)
    api.ocr = await measureApi(server.baseUrl, keys, "ocr", pages)
    api.faces = await measureApi(server.baseUrl, keys, "faces", photos)
    api.objects = await measureApi(server.baseUrl, keys, "objects", photos)
  } finally {
    await server.stop()
    server.kill()
    await fs.rm(dataDir, { recursive: true, force: true })
  }
  const bare = await measureBare(pages, photos)

  const figures = {} as Record<Endpoint, ApiFigures & { bareMs: number }>
  const lines = [`Public API, local models (${THREADS} threads, ${os.availableParallelism()} CPUs; ${pages.length} text pages, ${photos.length} photos):`]
  for (const endpoint of ["ocr", "faces", "objects"] as const) {
    const { oneAtATimeMs, imagesPerSecond, p50Ms, p99Ms } = api[endpoint]
    const bareMs = bare[endpoint]
    figures[endpoint] = { ...api[endpoint], bareMs }
    lines.push(
      `  /api/v1/${endpoint.padEnd(7)} ${imagesPerSecond.toFixed(2)} images/s at ${CONCURRENCY} calls at once (p50 ${p50Ms.toFixed(0)} ms, p99 ${p99Ms.toFixed(0)} ms); ` +
        `one at a time ${oneAtATimeMs.toFixed(0)} ms vs bare library ${bareMs.toFixed(0)} ms (×${(oneAtATimeMs / bareMs).toFixed(2)}); ` +
        `throughput ×${((imagesPerSecond * bareMs) / 1000).toFixed(2)} the bare library's in one thread`
    )
  }
  return { lines, figures }
}

runIfMain(import.meta.url, "public API vision", measurePublicApiVision)
