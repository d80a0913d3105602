import { createHash, randomBytes } from "node:crypto"
import fs from "node:fs/promises"
import path from "node:path"
import { gunzipSync, gzipSync } from "node:zlib"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { KNOWN_OCR_LANGUAGES, ocrLanguageListSchema, SCRIPT_DETECTION_PACK, VERTICAL_TEXT_PACKS, type OcrLanguageList } from "~core/ocr/ocr-languages"

import { makeTempDir, openTestDatabase, startTestApp, type TestApp } from "../test-kit"
import type { Database } from "../db/database"
import { ocrPackCacheDir } from "./compressed-packs"

let ip = 0
const nextIp = () => `10.43.${Math.floor(++ip / 250)}.${ip % 250}`
// Bytes compared by hash: a deep equality of large buffers takes seconds.
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")
const COMPRESSED = "OCR language pack compressed and kept"

/**
 * A file laid out as tesseract's models are (24 entries, the LSTM ones present, as in Debian's rus.traineddata),
 * its body half random, half repeated text: it compresses, and no two are alike.
 */
function traineddata(bytes = 400_000): Buffer {
  const entries = 24
  const header = Buffer.alloc(4 + 8 * entries)
  header.writeUInt32LE(entries, 0)
  for (let index = 0; index < entries; index++) {
    const offset = index < 17 ? -1 : header.length + ((index - 17) * bytes) / 8
    header.writeBigInt64LE(BigInt(offset), 4 + 8 * index)
  }
  const text = Buffer.from("Съешь же ещё этих мягких французских булок, да выпей чаю. ".repeat(Math.ceil(bytes / 200)))
  return Buffer.concat([header, randomBytes(bytes / 2), text.subarray(0, bytes / 2)])
}

let database: Database
let folder: string
let dataDir: string
const rus = traineddata()
const hebCompressed = gzipSync(traineddata(1000))

beforeAll(async () => {
  database = await openTestDatabase()
  folder = await makeTempDir("iqa-tessdata-")
  dataDir = await makeTempDir("iqa-ocr-data-")
  await fs.writeFile(path.join(folder, "rus.traineddata"), rus)
  // The same model under another code: compressed once, for both.
  await fs.writeFile(path.join(folder, "bel.traineddata"), rus)
  await fs.writeFile(path.join(folder, "nld.traineddata"), Buffer.from("not a tesseract model at all, just some words"))
  await fs.writeFile(path.join(folder, "fin.traineddata"), traineddata().subarray(0, 100_000))
  await fs.writeFile(path.join(folder, "equ.traineddata"), traineddata(1000))
  await fs.writeFile(path.join(folder, "heb.traineddata"), traineddata(1000))
  await fs.writeFile(path.join(folder, "heb.traineddata.gz"), hebCompressed)
  await fs.mkdir(path.join(folder, "script"))
  await fs.writeFile(path.join(folder, "script", "Latin.traineddata"), traineddata(1000))
})
afterAll(async () => {
  await database?.close()
  for (const dir of [folder, dataDir]) if (dir) await fs.rm(dir, { recursive: true, force: true })
})

interface Server extends TestApp {
  logs: string[]
}

/** A server on the suite's data folder (so its kept copies), its log lines at info level collected. */
async function start(operatorFolder = folder, data = dataDir): Promise<Server> {
  const logs: string[] = []
  const server = await startTestApp({ OCR_LANGUAGES_DIR: operatorFolder, DATA_DIR: data, LOG_LEVEL: "info" }, { database, logStream: { write: (line: string) => void logs.push(line) } })
  return { ...server, logs }
}

/** Closes the app alone: the database and data folder are the suite's. */
const stop = (server: Server | undefined) => server?.app.close()

async function listOf(server: TestApp): Promise<OcrLanguageList> {
  const response = await server.app.inject({ method: "GET", url: "/api/ocr/languages", remoteAddress: nextIp() })
  expect(response.statusCode).toBe(200)
  return ocrLanguageListSchema.parse(response.json().data)
}

const download = (server: TestApp, code: string) => server.app.inject({ method: "GET", url: `/api/ocr/languages/${code}`, remoteAddress: nextIp() })
const compressions = (server: Server) => server.logs.filter((line) => line.includes(COMPRESSED))
const keptCopies = () => fs.readdir(ocrPackCacheDir(dataDir)).catch(() => [])

describe("plain .traineddata files in OCR_LANGUAGES_DIR", () => {
  it("compresses a plain file once for 20 parallel first downloads: each gets the same gzip, which unpacks to the file", async () => {
    const server = await start()
    try {
      const responses = await Promise.all(Array.from({ length: 20 }, () => download(server, "rus")))
      for (const response of responses) {
        expect(response.statusCode).toBe(200)
        expect(response.headers["content-type"]).toBe("application/gzip")
        expect(sha256(response.rawPayload)).toBe(sha256(responses[0]!.rawPayload))
      }
      const served = responses[0]!.rawPayload
      expect(sha256(gunzipSync(served))).toBe(sha256(rus))
      expect(served.length).toBeLessThan(rus.length)
      expect(responses[0]!.headers.etag).toBe(`"${sha256(served)}"`)
      expect(responses[0]!.headers["cache-control"]).toBe("public, max-age=2592000")
      // rus and bel hold the same bytes: one compression for both.
      expect(compressions(server)).toHaveLength(1)
      expect(sha256((await download(server, "bel")).rawPayload)).toBe(sha256(served))
      expect(await keptCopies()).toEqual([`${sha256(rus)}.traineddata.gz`])

      const russian = (await listOf(server)).languages.find((language) => language.code === "rus")
      expect(russian).toEqual({ code: "rus", name: "Russian", nativeName: "Русский", script: "Cyrillic", size: served.length, sha256: sha256(served) })
    } finally {
      await stop(server)
    }
  })

  it("builds the list in the background as soon as the server is ready: the copy is made before any request", async () => {
    const freshData = await makeTempDir("iqa-ocr-data-warm-")
    const server = await start(folder, freshData)
    try {
      await expect.poll(() => fs.readdir(ocrPackCacheDir(freshData)).catch(() => []), { timeout: 15_000 }).toEqual([`${sha256(rus)}.traineddata.gz`])
      await expect.poll(() => server.logs.some((line) => line.includes("OCR language list ready")), { timeout: 15_000 }).toBe(true)
      expect(compressions(server)).toHaveLength(1)
    } finally {
      await stop(server)
      await fs.rm(freshData, { recursive: true, force: true })
    }
  })

  it("keeps the compressed copy across restarts: the next server lists the same bytes and compresses nothing", async () => {
    const first = await start()
    const listed = (await listOf(first)).languages.find((language) => language.code === "rus")
    await stop(first)
    const second = await start()
    try {
      expect((await listOf(second)).languages.find((language) => language.code === "rus")).toEqual(listed)
      expect(sha256((await download(second, "rus")).rawPayload)).toBe(listed!.sha256)
      expect(compressions(second)).toEqual([])
    } finally {
      await stop(second)
    }
  })

  it("makes a damaged kept copy again instead of serving it, and a changed file gets a copy of its own", async () => {
    const copy = path.join(ocrPackCacheDir(dataDir), `${sha256(rus)}.traineddata.gz`)
    const whole = await fs.readFile(copy)
    await fs.writeFile(copy, whole.subarray(0, whole.length >> 1))
    const server = await start()
    try {
      expect(sha256(gunzipSync((await download(server, "rus")).rawPayload))).toBe(sha256(rus))
      expect(server.logs.some((line) => line.includes("is damaged: compressing it again"))).toBe(true)
      expect(compressions(server)).toHaveLength(1)
    } finally {
      await stop(server)
    }

    const changedFolder = await makeTempDir("iqa-tessdata-changed-")
    const changed = traineddata()
    await fs.writeFile(path.join(changedFolder, "rus.traineddata"), changed)
    const restarted = await start(changedFolder)
    try {
      expect(sha256(gunzipSync((await download(restarted, "rus")).rawPayload))).toBe(sha256(changed))
      expect((await keptCopies()).sort()).toEqual([`${sha256(rus)}.traineddata.gz`, `${sha256(changed)}.traineddata.gz`].sort())
    } finally {
      await stop(restarted)
      await fs.rm(changedFolder, { recursive: true, force: true })
    }
  })

  it("refuses a file that is not a tesseract model, a truncated one and equ with a warning: 404 NOT_FOUND in the wrapper", async () => {
    const server = await start()
    try {
      const codes = (await listOf(server)).languages.map((language) => language.code)
      for (const code of ["nld", "fin", "equ"]) {
        expect(codes).not.toContain(code)
        const response = await download(server, code)
        expect(response.statusCode, code).toBe(404)
        expect(response.json(), code).toMatchObject({ success: false, error: { code: "NOT_FOUND", message: `This server has no OCR language pack "${code}".` } })
      }
      const warnings = server.logs.filter((line) => line.includes("OCR language pack ignored"))
      expect(warnings.some((line) => line.includes("nld.traineddata") && line.includes("not a tesseract model"))).toBe(true)
      expect(warnings.some((line) => line.includes("fin.traineddata") && line.includes("not a tesseract model"))).toBe(true)
      expect(warnings.some((line) => line.includes("equ.traineddata") && line.includes("mathematical equations"))).toBe(true)
      // The script/ models sit in a subfolder, which is not read.
      expect(codes.some((code) => code.toLowerCase().includes("latin"))).toBe(false)
    } finally {
      await stop(server)
    }
  })

  it("serves the operator's .traineddata.gz as it is when the plain file of the same code is there too", async () => {
    const server = await start()
    try {
      expect(sha256((await download(server, "heb")).rawPayload)).toBe(sha256(hebCompressed))
      expect((await listOf(server)).languages.find((language) => language.code === "heb")).toMatchObject({ name: "Hebrew", nativeName: "עברית", sha256: sha256(hebCompressed) })
    } finally {
      await stop(server)
    }
  })

  it("answers 400 or 404 in the wrapper, never 500, to codes a tessdata folder suggests", async () => {
    const server = await start()
    try {
      const expected: Record<string, number> = {
        "rus.traineddata": 400,
        "script%2FLatin": 400,
        script: 400,
        Latin: 400,
        RUS: 400,
        "..%2Frus.traineddata": 400,
        "rus%00": 400,
        equ: 404,
        kor_vert: 404
      }
      for (const [code, status] of Object.entries(expected)) {
        const response = await download(server, code)
        expect(response.statusCode, code).toBe(status)
        expect(response.json(), code).toMatchObject({ success: false, error: { code: status === 400 ? "VALIDATION_FAILED" : "NOT_FOUND" } })
      }
    } finally {
      await stop(server)
    }
  })

  it("lists every language of a full tessdata folder under its English and own names, each pack served", async () => {
    const full = await makeTempDir("iqa-tessdata-full-")
    const fullData = await makeTempDir("iqa-ocr-data-full-")
    const codes = [...KNOWN_OCR_LANGUAGES.map((language) => language.code), ...Object.values(VERTICAL_TEXT_PACKS), SCRIPT_DETECTION_PACK]
    await Promise.all(codes.map((code) => fs.writeFile(path.join(full, `${code}.traineddata`), traineddata(2000))))
    const server = await start(full, fullData)
    try {
      const list = await listOf(server)
      expect(list.languages).toHaveLength(KNOWN_OCR_LANGUAGES.length)
      expect(list.languages.length).toBeGreaterThanOrEqual(120)
      for (const language of list.languages) {
        const known = KNOWN_OCR_LANGUAGES.find((entry) => entry.code === language.code)!
        expect(language).toMatchObject({ name: known.name, nativeName: known.nativeName, script: known.script })
      }
      expect(list.verticalText.map((pack) => pack.code).sort()).toEqual(Object.values(VERTICAL_TEXT_PACKS).sort())
      expect(list.scriptDetection?.code).toBe("osd")
      expect(compressions(server)).toHaveLength(codes.length)
      const sample = list.languages.find((language) => language.code === "kat_old")!
      expect(sha256((await download(server, "kat_old")).rawPayload)).toBe(sample.sha256)
    } finally {
      await stop(server)
      for (const dir of [full, fullData]) await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
