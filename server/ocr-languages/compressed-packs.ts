/**
 * Plain `.traineddata` files, as Debian's tesseract-ocr-* packages install them, served gzip-compressed like every
 * other pack: the extension's engine (tesseract.js) and its integrity check take the .gz, and it is 40 % of the size.
 * Each file is compressed once into a folder the server owns, named after the SHA-256 of the plain bytes: a
 * changed file gets a new copy, identical files share one, and a copy outlives restarts. A copy is written under a
 * temporary name and renamed once complete and flushed, so a half-written one is never served; a kept copy that
 * does not unpack to the bytes its name promises is made again.
 */
import { createHash, randomBytes } from "node:crypto"
import { createReadStream } from "node:fs"
import fs from "node:fs/promises"
import path from "node:path"
import { pipeline } from "node:stream/promises"
import { createGunzip, createGzip } from "node:zlib"

import type { FastifyBaseLogger } from "fastify"

/** Where the compressed copies are kept: the server's own data, never the operator's folder (often read-only). */
export const ocrPackCacheDir = (dataDir: string) => path.join(dataDir, "ocr-packs")

export interface CompressedPack {
  file: string
  /** Bytes of the .gz. */
  size: number
  /** Hex SHA-256 of the .gz. */
  sha256: string
}

/** Compressions at once: each keeps a core busy, and the server has requests to answer meanwhile. */
const MAX_PARALLEL_COMPRESSIONS = 2

/** Hashes what passes through, counting it. */
function measuring(hash: ReturnType<typeof createHash>, counted: { bytes: number }) {
  return async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      hash.update(chunk)
      counted.bytes += chunk.length
      yield chunk
    }
  }
}

/** The .gz's size and hash, and the hash of what it unpacks to; rejects if it does not unpack. */
async function inspectCopy(file: string): Promise<{ size: number; sha256: string; plainSha256: string }> {
  const packed = createHash("sha256")
  const plain = createHash("sha256")
  const counted = { bytes: 0 }
  await pipeline(createReadStream(file), measuring(packed, counted), createGunzip(), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) plain.update(chunk)
  })
  return { size: counted.bytes, sha256: packed.digest("hex"), plainSha256: plain.digest("hex") }
}

export class CompressedPackCache {
  /** Copies being looked for or made, by plain hash: every caller meanwhile waits for the same one. */
  private readonly pending = new Map<string, Promise<CompressedPack>>()
  private running = 0
  private readonly queue: (() => void)[] = []

  constructor(
    private readonly folder: string,
    private readonly log: FastifyBaseLogger
  ) {}

  /** The compressed copy of `plainFile`, whose bytes hash to `plainSha256`: the kept one, else one made now. */
  compressedCopy(plainFile: string, plainSha256: string): Promise<CompressedPack> {
    const pending = this.pending.get(plainSha256)
    if (pending) return pending
    const copy = this.keptCopy(plainSha256).then((kept) => kept ?? this.inTurn(() => this.compress(plainFile, plainSha256)))
    this.pending.set(plainSha256, copy)
    // Later callers look on disk again: a copy removed meanwhile is then made again rather than promised.
    const forget = () => void this.pending.delete(plainSha256)
    copy.then(forget, forget)
    return copy
  }

  private copyFile(plainSha256: string) {
    return path.join(this.folder, `${plainSha256}.traineddata.gz`)
  }

  private async keptCopy(plainSha256: string): Promise<CompressedPack | null> {
    const file = this.copyFile(plainSha256)
    try {
      const { size, sha256, plainSha256: unpacked } = await inspectCopy(file)
      if (unpacked === plainSha256) return { file, size, sha256 }
      this.log.warn({ file }, "Compressed OCR language pack does not unpack to its plain file: compressing it again")
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.log.warn({ err: error, file }, "Compressed OCR language pack is damaged: compressing it again")
    }
    return null
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    while (this.running >= MAX_PARALLEL_COMPRESSIONS) await new Promise<void>((resolve) => this.queue.push(resolve))
    this.running++
    try {
      return await work()
    } finally {
      this.running--
      this.queue.shift()?.()
    }
  }

  private async compress(plainFile: string, plainSha256: string): Promise<CompressedPack> {
    const started = performance.now()
    const file = this.copyFile(plainSha256)
    await fs.mkdir(this.folder, { recursive: true })
    // Unique per writer: two servers sharing the folder each write their own, and the last rename wins with the same bytes.
    const temporary = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`
    const plain = createHash("sha256")
    const packed = createHash("sha256")
    const read = { bytes: 0 }
    let size = 0
    const output = await fs.open(temporary, "wx")
    try {
      try {
        await pipeline(createReadStream(plainFile), measuring(plain, read), createGzip(), async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) {
            packed.update(chunk)
            size += chunk.length
            await output.write(chunk)
          }
        })
        await output.sync()
      } finally {
        await output.close()
      }
      if (plain.digest("hex") !== plainSha256) throw new Error(`${plainFile} changed while it was being compressed`)
      await fs.rename(temporary, file)
    } catch (error) {
      await fs.rm(temporary, { force: true })
      throw error
    }
    this.log.info({ file: plainFile, copy: file, plainBytes: read.bytes, bytes: size, ms: Math.round(performance.now() - started) }, "OCR language pack compressed and kept")
    return { file, size, sha256: packed.digest("hex") }
  }
}
