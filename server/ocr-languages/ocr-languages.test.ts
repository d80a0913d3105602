import { createHash, randomBytes } from "node:crypto"
import fs from "node:fs/promises"
import path from "node:path"
import { gzipSync } from "node:zlib"

import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { KNOWN_OCR_LANGUAGES, ocrLanguageListSchema, type OcrLanguageList } from "~core/ocr/ocr-languages"

import { makeTempDir, startTestApp, type TestApp } from "../test-kit"
import { DEFAULT_OCR_DOWNLOAD_LIMIT } from "./routes"

/** The @tesseract.js-data packages the project installs (rus is a known language whose package is not installed). */
const PACKAGED_LANGUAGES = ["eng", "ara", "ben", "chi_sim", "chi_tra", "deu", "fra", "hin", "ita", "jpn", "kor", "por", "spa", "tur", "ukr", "vie"]

let subject: TestApp
let ip = 0
const nextIp = () => `10.40.${Math.floor(++ip / 250)}.${ip % 250}`

beforeAll(async () => {
  subject = await startTestApp()
})
afterAll(async () => subject?.close())

async function listOf(target: TestApp): Promise<OcrLanguageList> {
  const response = await target.app.inject({ method: "GET", url: "/api/ocr/languages", remoteAddress: nextIp() })
  expect(response.statusCode).toBe(200)
  expect(response.json().success).toBe(true)
  return ocrLanguageListSchema.parse(response.json().data)
}

function download(target: TestApp, code: string, headers: Record<string, string> = {}, remoteAddress = nextIp()) {
  return target.app.inject({ method: "GET", url: `/api/ocr/languages/${code}`, headers, remoteAddress })
}

/** Closes an app that shares the suite's database. */
async function closeSharing(target: TestApp) {
  await target.app.close()
  await fs.rm(target.dataDir, { recursive: true, force: true })
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex")

describe("GET /api/ocr/languages", () => {
  it("lists every packaged language with its names and script, English first then by English name, osd apart", async () => {
    const list = await listOf(subject)
    const codes = list.languages.map((language) => language.code)
    expect([...codes].sort()).toEqual([...PACKAGED_LANGUAGES].sort())
    expect(codes[0]).toBe("eng")
    const rest = list.languages.slice(1).map((language) => language.name)
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, "en")))
    for (const language of list.languages) {
      const known = KNOWN_OCR_LANGUAGES.find((entry) => entry.code === language.code)!
      expect(language).toMatchObject({ name: known.name, nativeName: known.nativeName, script: known.script })
    }
    expect(list.languages.find((language) => language.code === "hin")).toMatchObject({ name: "Hindi", nativeName: "हिन्दी", script: "Devanagari" })
    expect(list.scriptDetection).toMatchObject({ code: "osd", name: "Orientation and script detection" })
    expect(codes).not.toContain("osd")
  })

  it("lists the vertical-text packs apart, named after their language: they are read with it, not chosen alone", async () => {
    const list = await listOf(subject)
    expect(list.verticalText.map((pack) => pack.code)).toEqual(["chi_tra_vert", "jpn_vert"])
    expect(list.verticalText.find((pack) => pack.code === "jpn_vert")).toMatchObject({ name: "Japanese, vertical text", nativeName: "日本語", script: "Japanese" })
    expect(list.languages.map((language) => language.code)).not.toContain("jpn_vert")
  })

  it("gives each pack the size and SHA-256 of the bytes its download sends, osd and vertical text included", async () => {
    const list = await listOf(subject)
    for (const pack of [...list.languages, list.scriptDetection!, ...list.verticalText]) {
      const response = await download(subject, pack.code)
      expect(response.statusCode).toBe(200)
      const bytes = response.rawPayload
      expect(bytes.length).toBe(pack.size)
      expect(sha256(bytes)).toBe(pack.sha256)
      expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    }
  })

  it("answers 20 parallel first requests of a fresh server with one and the same list", async () => {
    const fresh = await startTestApp({}, { database: subject.database })
    try {
      const lists = await Promise.all(Array.from({ length: 20 }, () => listOf(fresh)))
      for (const list of lists) expect(list).toEqual(lists[0])
      expect(lists[0]!.languages.length).toBe(PACKAGED_LANGUAGES.length)
    } finally {
      await closeSharing(fresh)
    }
  })
})

describe("GET /api/ocr/languages/:code", () => {
  it("sends the pack as gzip with long-lived cache headers and its hash as ETag", async () => {
    const eng = (await listOf(subject)).languages[0]!
    const response = await download(subject, "eng")
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-type"]).toBe("application/gzip")
    expect(response.headers["content-length"]).toBe(String(eng.size))
    expect(response.headers["cache-control"]).toBe("public, max-age=2592000")
    expect(response.headers.etag).toBe(`"${eng.sha256}"`)
  })

  it("answers 304 with no body to a matching If-None-Match, weak or in a list, and the pack to another", async () => {
    const { sha256: hash } = (await listOf(subject)).languages[0]!
    for (const ifNoneMatch of [`"${hash}"`, `W/"${hash}"`, `"other", "${hash}"`, "*"]) {
      const response = await download(subject, "eng", { "if-none-match": ifNoneMatch })
      expect(response.statusCode, ifNoneMatch).toBe(304)
      expect(response.rawPayload.length).toBe(0)
      expect(response.headers.etag).toBe(`"${hash}"`)
      expect(response.headers["cache-control"]).toBe("public, max-age=2592000")
    }
    const changed = await download(subject, "eng", { "if-none-match": `"${"0".repeat(64)}"` })
    expect(changed.statusCode).toBe(200)
    expect(sha256(changed.rawPayload)).toBe(hash)
  })

  it("answers HEAD with the headers and no body", async () => {
    const { size, sha256: hash } = (await listOf(subject)).languages[0]!
    const response = await subject.app.inject({ method: "HEAD", url: "/api/ocr/languages/eng", remoteAddress: nextIp() })
    expect(response.statusCode).toBe(200)
    expect(response.headers["content-length"]).toBe(String(size))
    expect(response.headers.etag).toBe(`"${hash}"`)
    expect(response.rawPayload.length).toBe(0)
  })

  it("answers 404 NOT_FOUND in the wrapper for a well-formed code it does not have", async () => {
    for (const code of ["zzz", "rus", "eng_old"]) {
      const response = await download(subject, code)
      expect(response.statusCode, code).toBe(404)
      expect(response.json()).toMatchObject({ success: false, error: { code: "NOT_FOUND" } })
      expect(response.headers["cache-control"]).toBeUndefined()
    }
  })

  it("refuses codes that are not tesseract codes in the wrapper, never reading outside the packs", async () => {
    const inputs = [
      "..%2F..%2Fetc%2Fpasswd",
      "..%2F..%2F..%2F..%2Fetc%2Fhosts",
      "%2e%2e",
      "ENG",
      "engengengengengengeng",
      "eng_abcdefghijk",
      "eng.traineddata.gz",
      "eng%00",
      "e",
      "%E0%A4%B9",
      "%",
      "%zz",
      "a".repeat(150),
      "osd%2F..%2Feng"
    ]
    for (const input of inputs) {
      const response = await download(subject, input)
      expect([400, 404, 414], input).toContain(response.statusCode)
      expect(response.json(), input).toMatchObject({ success: false })
      expect(["VALIDATION_FAILED", "BAD_REQUEST", "NOT_FOUND"], input).toContain(response.json().error.code)
    }
    const traversal = await download(subject, "..%2F..%2Fetc%2Fpasswd")
    expect(traversal.json().error.details).toEqual(["code: must be a tesseract language code such as eng or chi_sim"])
  })

  it("limits downloads per IP address: a parallel burst gets exactly the limit, the rest 429 RATE_LIMIT_EXCEEDED", async () => {
    const limited = await startTestApp({}, { database: subject.database, ocrDownloadLimit: { max: 5, timeWindow: 60_000 } })
    try {
      const burst = await Promise.all(Array.from({ length: 20 }, () => download(limited, "eng", { "if-none-match": "*" }, "10.41.0.1")))
      expect(burst.filter((response) => response.statusCode === 304)).toHaveLength(5)
      const refused = burst.filter((response) => response.statusCode === 429)
      expect(refused).toHaveLength(15)
      for (const response of refused) expect(response.json()).toMatchObject({ success: false, error: { code: "RATE_LIMIT_EXCEEDED" } })
      expect((await download(limited, "eng", { "if-none-match": "*" }, "10.41.0.2")).statusCode).toBe(304)
      const head = await limited.app.inject({ method: "HEAD", url: "/api/ocr/languages/eng", remoteAddress: "10.41.0.1" })
      expect(head.statusCode).toBe(429)
    } finally {
      await closeSharing(limited)
    }
  })

  it("allows 300 downloads per IP address an hour by default", async () => {
    expect(DEFAULT_OCR_DOWNLOAD_LIMIT).toMatchObject({ max: 300, timeWindow: 60 * 60_000 })
    const burst = await Promise.all(Array.from({ length: 301 }, () => download(subject, "eng", { "if-none-match": "*" }, "10.42.0.1")))
    expect(burst.filter((response) => response.statusCode === 304)).toHaveLength(300)
    expect(burst.filter((response) => response.statusCode === 429)).toHaveLength(1)
  })
})

describe("OCR_LANGUAGES_DIR", () => {
  let folder: string
  let operator: TestApp
  const logLines: string[] = []
  const addedPack = gzipSync(randomBytes(4096))
  const frenchOverride = gzipSync(Buffer.from("an operator's own French model"))

  beforeAll(async () => {
    folder = await makeTempDir("iqa-ocr-")
    await fs.writeFile(path.join(folder, "xyz_test.traineddata.gz"), addedPack)
    await fs.writeFile(path.join(folder, "fra.traineddata.gz"), frenchOverride)
    await fs.writeFile(path.join(folder, "nld.traineddata.gz"), Buffer.from("not compressed at all"))
    await fs.writeFile(path.join(folder, "Bad-Name.traineddata.gz"), gzipSync(Buffer.from("x")))
    await fs.writeFile(path.join(folder, "notes.txt"), "not a pack")
    await fs.mkdir(path.join(folder, "dir.traineddata.gz"))
    operator = await startTestApp(
      { OCR_LANGUAGES_DIR: folder, LOG_LEVEL: "warn" },
      { database: subject.database, logStream: { write: (line: string) => void logLines.push(line) } }
    )
  })
  afterAll(async () => {
    if (operator) await closeSharing(operator)
    await fs.rm(folder, { recursive: true, force: true })
  })

  it("adds a pack with an unknown code under its code, and serves it", async () => {
    const list = await listOf(operator)
    const added = list.languages.find((language) => language.code === "xyz_test")
    expect(added).toEqual({ code: "xyz_test", name: "xyz_test", nativeName: "xyz_test", script: "Unknown", size: addedPack.length, sha256: sha256(addedPack) })
    const response = await download(operator, "xyz_test")
    expect(response.statusCode).toBe(200)
    expect(response.rawPayload).toEqual(addedPack)
  })

  it("serves an operator's pack instead of the package of the same code, under the language's names", async () => {
    const french = (await listOf(operator)).languages.find((language) => language.code === "fra")
    expect(french).toMatchObject({ name: "French", nativeName: "Français", size: frenchOverride.length, sha256: sha256(frenchOverride) })
    expect((await download(operator, "fra")).rawPayload).toEqual(frenchOverride)
  })

  it("skips a file that is not gzip with a warning, ignores a badly named one, and keeps every package", async () => {
    const codes = (await listOf(operator)).languages.map((language) => language.code)
    expect(codes).not.toContain("nld")
    expect(codes.filter((code) => code !== "xyz_test").sort()).toEqual([...PACKAGED_LANGUAGES].sort())
    expect((await download(operator, "nld")).statusCode).toBe(404)
    expect(logLines.some((line) => line.includes("nld.traineddata.gz") && line.includes("not gzip-compressed"))).toBe(true)
    expect(logLines.some((line) => line.includes("Bad-Name.traineddata.gz") && line.includes("not a tesseract code"))).toBe(true)
  })

  it("answers 503 in the wrapper when a listed pack has gone or changed on disk, and 200 again once it is back", async () => {
    const file = path.join(folder, "xyz_test.traineddata.gz")
    await listOf(operator)
    await fs.rm(file)
    const gone = await download(operator, "xyz_test")
    expect(gone.statusCode).toBe(503)
    expect(gone.json()).toMatchObject({ success: false, error: { code: "SERVICE_UNAVAILABLE" } })
    expect(gone.headers["cache-control"]).toBeUndefined()

    await fs.writeFile(file, Buffer.concat([addedPack, Buffer.from([0])]))
    const changed = await download(operator, "xyz_test")
    expect(changed.statusCode).toBe(503)

    await fs.writeFile(file, addedPack)
    expect((await download(operator, "xyz_test")).rawPayload).toEqual(addedPack)
  })

  it("builds the catalogue once for 20 parallel first requests: one list, one warning per skipped file", async () => {
    const lines: string[] = []
    const fresh = await startTestApp(
      { OCR_LANGUAGES_DIR: folder, LOG_LEVEL: "warn" },
      { database: subject.database, logStream: { write: (line: string) => void lines.push(line) } }
    )
    try {
      const lists = await Promise.all(Array.from({ length: 20 }, () => listOf(fresh)))
      for (const list of lists) expect(list).toEqual(lists[0])
      expect(lines.filter((line) => line.includes("nld.traineddata.gz"))).toHaveLength(1)
    } finally {
      await closeSharing(fresh)
    }
  })

  it("offers the packages alone when the folder does not exist", async () => {
    const lines: string[] = []
    const missing = await startTestApp(
      { OCR_LANGUAGES_DIR: path.join(folder, "no-such-folder"), LOG_LEVEL: "warn" },
      { database: subject.database, logStream: { write: (line: string) => void lines.push(line) } }
    )
    try {
      expect((await listOf(missing)).languages.map((language) => language.code).sort()).toEqual([...PACKAGED_LANGUAGES].sort())
      expect(lines.some((line) => line.includes("OCR_LANGUAGES_DIR cannot be read"))).toBe(true)
    } finally {
      await closeSharing(missing)
    }
  })
})
