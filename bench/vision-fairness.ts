// One account floods the public API's local models while another keeps calling: what the other customer still gets.
// A server started as `npm start` runs it, with VISION_THREADS=2 (the machine's two cores).
//   - Idle: a customer's OCR calls (a rendered text page), one after another, on a server doing nothing else.
//   - Flood: another account with 10 keys keeps 5 calls going on each (50 at once, as the reported attack did), each a
//     700×700 PNG of noise that keeps tesseract busy for seconds; a call refused waits the retryAfter it was given, as
//     a client library does. The flood runs in a process of its own at nice 19 (bench/vision-flood.ts), standing for
//     a client on another machine. Meanwhile the customer makes the same calls as when idle.
//   The figures: the customer's p50 and p95 in both, their ratio (the bound: 2) and the customer's refusals (the bound:
//   none), and how many of the flood's calls were answered and refused.
//   - Memory: the server's peak resident memory (VmHWM) after the flood, and after the worst the pool allows: each
//     thread reading text in an image of V1_OCR_MAX_IMAGE_PIXELS at once, then each finding faces in one of 49 MP.
// Alone: node --import tsx bench/vision-fairness.ts
import { spawn } from "node:child_process"
import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import sharp from "sharp"

import { V1_OCR_MAX_IMAGE_PIXELS } from "../server/public-api/local-vision-schemas"
import { runIfMain } from "./figures"
import { PASSWORD, post, subscribeToPro, verifiedAccount } from "./mixed-load"
import { startServer } from "./server-process"

const THREADS = 2
const FLOOD_KEYS = 10
/** The customer's calls in each phase. */
const CUSTOMER_CALLS = 20
/** How long the flood runs before the customer starts, so that the line is full when they come. */
const FLOOD_HEAD_START_MS = 3_000

const percentile = (values: number[], fraction: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(fraction * values.length) - 1)]!
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function textPage(): Promise<Buffer> {
  const lines = ["INVOICE 2026-114", "TOTAL DUE 1,284.00 EUR", "PAYABLE WITHIN 30 DAYS"]
  const text = lines.map((line, index) => `<text x="30" y="${70 + index * 70}" font-family="sans-serif" font-size="42">${line}</text>`).join("")
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="260"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`))
    .png()
    .toBuffer()
}

async function noise(side: number): Promise<Buffer> {
  const pixels = Buffer.alloc(side * side * 3)
  for (let index = 0, state = 7; index < pixels.length; index++) pixels[index] = (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) >>> 24
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).png().toBuffer()
}

const flat = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: "#ffffff" } }).png().toBuffer()

/** A call's body, made once per image: the bench's own CPU goes to the server, not to encoding the same image again. */
const bodies = new WeakMap<Buffer, string>()
const bodyOf = (image: Buffer) => {
  let body = bodies.get(image)
  if (!body) bodies.set(image, (body = JSON.stringify({ image: { dataUrl: `data:image/png;base64,${image.toString("base64")}` } })))
  return body
}

async function call(baseUrl: string, endpoint: string, key: string, image: Buffer) {
  const started = performance.now()
  const response = await fetch(`${baseUrl}/api/v1/${endpoint}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: bodyOf(image)
  })
  const body = (await response.json()) as { error?: { retryAfter?: number; message: string } }
  return { status: response.status, ms: performance.now() - started, retryAfter: body.error?.retryAfter, message: body.error?.message }
}

/** The customer's calls, one after another: their times, and any that were not answered 200. */
async function customerCalls(baseUrl: string, key: string, page: Buffer) {
  const times: number[] = []
  const refused: string[] = []
  for (let index = 0; index < CUSTOMER_CALLS; index++) {
    const answer = await call(baseUrl, "ocr", key, page)
    times.push(answer.ms)
    if (answer.status !== 200) refused.push(`${answer.status} ${answer.message}`)
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), refused }
}

/** The server's peak resident memory so far, in MiB. */
async function peakMemoryMib(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8")
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
}

async function keysOf(baseUrl: string, dataDir: string, email: string, count: number): Promise<string[]> {
  const token = await verifiedAccount(baseUrl, [dataDir], email)
  await subscribeToPro(baseUrl, token, email)
  const keys: string[] = []
  for (let index = 0; index < count; index++) keys.push((await post(baseUrl, "/api/keys", { name: `bench ${index}`, currentPassword: PASSWORD }, token)).key as string)
  return keys
}

export async function measureVisionFairness() {
  const [page, noisy, largestText, largestPhoto] = await Promise.all([textPage(), noise(700), flat(5_000, V1_OCR_MAX_IMAGE_PIXELS / 5_000), flat(7_000, 7_000)])
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-bench-fairness-"))
  const server = await startServer(dataDir, { TRUST_PROXY: "1", VISION_THREADS: String(THREADS) })
  try {
    const [customer] = await keysOf(server.baseUrl, dataDir, "bench-customer@example.com", 1)
    const flooding = await keysOf(server.baseUrl, dataDir, "bench-flood@example.com", FLOOD_KEYS)
    // Both threads have started their reader.
    await Promise.all([call(server.baseUrl, "ocr", customer!, page), call(server.baseUrl, "ocr", flooding[0]!, page)])
    const idle = await customerCalls(server.baseUrl, customer!, page)

    const noiseFile = path.join(dataDir, "noise.png")
    await fs.writeFile(noiseFile, noisy)
    const flooder = spawn("nice", ["-n", "19", process.execPath, "--import", "tsx", "bench/vision-flood.ts"], {
      env: { ...process.env, IQA_FLOOD: JSON.stringify({ baseUrl: server.baseUrl, keys: flooding, image: noiseFile }) },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let floodOutput = ""
    flooder.stdout.setEncoding("utf8").on("data", (chunk: string) => (floodOutput += chunk))
    const floodEnded = new Promise<void>((resolve) => flooder.once("exit", () => resolve()))
    const flooded = await (async () => {
      try {
        while (!floodOutput.includes("flooding")) await sleep(50)
        await sleep(FLOOD_HEAD_START_MS)
        return await customerCalls(server.baseUrl, customer!, page)
      } finally {
        flooder.kill("SIGTERM")
        await floodEnded
      }
    })()
    const flood = JSON.parse(floodOutput.slice(floodOutput.indexOf("{"))) as { answered: number; refused: number; other: number }
    const afterFloodMib = await peakMemoryMib(server.pid)

    // The worst the pool allows: every thread at its most memory-hungry task at once.
    await Promise.all(Array.from({ length: THREADS }, () => call(server.baseUrl, "ocr", customer!, largestText)))
    const afterLargestTextMib = await peakMemoryMib(server.pid)
    await Promise.all(Array.from({ length: THREADS }, () => call(server.baseUrl, "faces", customer!, largestPhoto)))
    const afterLargestPhotoMib = await peakMemoryMib(server.pid)

    const ratio = flooded.p95 / idle.p95
    const lines = [
      `Public API shares (${THREADS} threads, ${os.availableParallelism()} CPUs): a customer's OCR calls while another account floods with ${FLOOD_KEYS} keys × 5 calls of noise`,
      `  customer, idle server:   p50 ${idle.p50.toFixed(0)} ms, p95 ${idle.p95.toFixed(0)} ms`,
      `  customer, during flood:  p50 ${flooded.p50.toFixed(0)} ms, p95 ${flooded.p95.toFixed(0)} ms (p95 ×${ratio.toFixed(2)} the idle one; bound ×2), refused ${flooded.refused.length} of ${CUSTOMER_CALLS}${flooded.refused.length ? `: ${flooded.refused.join("; ")}` : ""}`,
      `  flood: ${flood.answered} answered, ${flood.refused} refused with 429, ${flood.other} other answers`,
      `  server's peak memory: ${afterFloodMib.toFixed(0)} MiB after the flood, ${afterLargestTextMib.toFixed(0)} MiB after ${THREADS} readings of ${V1_OCR_MAX_IMAGE_PIXELS / 1_000_000} MP at once, ${afterLargestPhotoMib.toFixed(0)} MiB after ${THREADS} face searches of 49 MP at once`
    ]
    return { lines, figures: { idle, flooded, ratio, flood, memoryMib: { afterFlood: afterFloodMib, afterLargestText: afterLargestTextMib, afterLargestPhoto: afterLargestPhotoMib } } }
  } finally {
    await server.stop()
    server.kill()
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, "public API shares", measureVisionFairness)
