/**
 * /api/v1/ocr, /faces and /objects on real images, through the real worker pool and models: the text of a rendered
 * page read in English and in German, the three faces of face-api's sample photo counted as the extension counts
 * them, the people in it found; every box inside the image. Bad input refused in the wrapper and not counted; a
 * full queue refused at once with a time to come back.
 */
import { createRequire } from "node:module"
import path from "node:path"
import zlib from "node:zlib"

import sharp from "sharp"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { ApiUsage } from "~core/api-keys"
import type { V1FacesAnswer, V1ObjectsAnswer, V1OcrAnswer } from "./local-vision-schemas"

import { createdApiKey, signedInUser, startTestApp, type TestApp } from "../test-kit"

const SAMPLE_PHOTO = path.join(path.dirname(createRequire(import.meta.url).resolve("@vladmandic/face-api/package.json")), "demo/sample1.jpg")

let subject: TestApp
let key: string
let photo: Buffer

beforeAll(async () => {
  subject = await startTestApp({}, { clock: Date.now, visionPool: { threads: 1 } })
  const owner = await signedInUser(subject.app, "pro")
  key = (await createdApiKey(subject.app, owner.token, "vision")).key
  photo = await sharp(SAMPLE_PHOTO).toBuffer()
}, 60_000)
afterAll(async () => {
  await subject?.close()
})

/** Black text on white, one line per entry, as a PNG. */
function textImage(lines: string[]): Promise<Buffer> {
  const escaped = lines.map((line) => line.replace(/&/g, "&amp;").replace(/</g, "&lt;"))
  const text = escaped.map((line, index) => `<text x="30" y="${80 + index * 80}" font-family="sans-serif" font-size="48">${line}</text>`).join("")
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${60 + lines.length * 80}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

const dataUrl = (bytes: Buffer, type = "image/png") => `data:${type};base64,${bytes.toString("base64")}`

async function postJson(url: string, body: unknown, token = key) {
  const response = await subject.app.inject({ method: "POST", url, headers: { authorization: `Bearer ${token}` }, payload: body as object })
  return { status: response.statusCode, body: response.json() }
}

/** A multipart call: the image as the file field `image`, the options as text fields. */
async function postUpload(url: string, file: { name: string; bytes: Buffer; type: string } | null, fields: Record<string, string> = {}) {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  if (file) form.append("image", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
  const request = new Request("http://localhost/", { method: "POST", body: form })
  const response = await subject.app.inject({
    method: "POST",
    url,
    headers: { authorization: `Bearer ${key}`, "content-type": request.headers.get("content-type")! },
    payload: Buffer.from(await request.arrayBuffer())
  })
  return { status: response.statusCode, body: response.json() }
}

const usage = async () => (await subject.app.inject({ method: "GET", url: "/api/v1/usage", headers: { authorization: `Bearer ${key}` } })).json().data as ApiUsage

const inside = (box: { x: number; y: number; width: number; height: number }, width: number, height: number) =>
  box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0 && box.x + box.width <= width && box.y + box.height <= height

describe("the public API's local models", () => {
  it("reads the text of an uploaded image, line by line with boxes in its pixels", async () => {
    const image = await textImage(["IMAGE QUERY", "READS WORDS 2026"])
    const { status, body } = await postUpload("/api/v1/ocr", { name: "page.png", bytes: image, type: "image/png" })
    expect(status).toBe(200)
    const answer = body.data as V1OcrAnswer
    expect(answer.text).toBe("IMAGE QUERY\nREADS WORDS 2026")
    expect(answer.language).toBe("eng")
    expect(answer.confidence).toBeGreaterThan(0.8)
    expect(answer.lines.map((line) => line.text)).toEqual(["IMAGE QUERY", "READS WORDS 2026"])
    expect([answer.imageWidth, answer.imageHeight]).toEqual([900, 220])
    for (const line of answer.lines) expect(inside(line.bbox, 900, 220)).toBe(true)
    // The second line lies below the first.
    expect(answer.lines[1]!.bbox.y).toBeGreaterThan(answer.lines[0]!.bbox.y + answer.lines[0]!.bbox.height - 5)
  }, 60_000)

  it("reads German with the German pack, and refuses a language the server does not offer", async () => {
    const image = await textImage(["Größe der Straße", "Übermäßig schön"])
    const german = await postJson("/api/v1/ocr", { image: { dataUrl: dataUrl(image) }, languages: ["deu"] })
    expect(german.status).toBe(200)
    expect((german.body.data as V1OcrAnswer).text).toBe("Größe der Straße\nÜbermäßig schön")
    expect((german.body.data as V1OcrAnswer).language).toBe("deu")

    const unknown = await postJson("/api/v1/ocr", { image: { dataUrl: dataUrl(image) }, languages: ["deu", "xyz"] })
    expect([unknown.status, unknown.body.error.code]).toEqual([400, "VALIDATION_FAILED"])
    expect(unknown.body.error.details.join(" ")).toContain('"xyz"')
    const malformed = await postUpload("/api/v1/ocr", { name: "page.png", bytes: image, type: "image/png" }, { languages: "german" })
    expect([malformed.status, malformed.body.error.code]).toEqual([400, "VALIDATION_FAILED"])
  }, 60_000)

  it("counts the faces of the sample photo as the extension does, with age, gender and expression when asked", async () => {
    const before = await usage()
    const plain = await postUpload("/api/v1/faces", { name: "sample1.jpg", bytes: photo, type: "image/jpeg" })
    expect(plain.status).toBe(200)
    const found = plain.body.data as V1FacesAnswer
    expect(found.faces).toHaveLength(3)
    expect([found.imageWidth, found.imageHeight, found.detector]).toEqual([1920, 1280, "ssd"])
    for (const face of found.faces) {
      expect(inside(face.box, 1920, 1280)).toBe(true)
      expect(face.score).toBeGreaterThan(0.9)
      expect(face.age).toBeUndefined()
    }
    // Numbered left to right.
    expect(found.faces.map((face) => face.box.x)).toEqual([...found.faces.map((face) => face.box.x)].sort((a, b) => a - b))

    const detailed = await postJson("/api/v1/faces", { image: { dataUrl: dataUrl(photo, "image/jpeg") }, attributes: true })
    expect(detailed.status).toBe(200)
    const faces = (detailed.body.data as V1FacesAnswer).faces
    expect(faces).toHaveLength(3)
    for (const face of faces) {
      expect(face.age).toBeGreaterThan(10)
      expect(["male", "female"]).toContain(face.gender)
      expect(face.expression).toMatch(/^[a-z]+$/)
    }

    // The fast detector was removed: an old client asking for it gets the default's faces, and the answer says which ran.
    const retired = await postUpload("/api/v1/faces", { name: "sample1.jpg", bytes: photo, type: "image/jpeg" }, { detector: "tiny" })
    expect(retired.status).toBe(200)
    const asDefault = retired.body.data as V1FacesAnswer
    expect(asDefault.detector).toBe("ssd")
    expect(asDefault.faces).toEqual(found.faces)
    expect((await usage()).byEndpoint.faces).toBe(before.byEndpoint.faces + 3)
  }, 90_000)

  it("finds the people in the sample photo", async () => {
    const { status, body } = await postJson("/api/v1/objects", { image: { dataUrl: dataUrl(photo, "image/jpeg") } })
    expect(status).toBe(200)
    const answer = body.data as V1ObjectsAnswer
    expect(answer.objects.filter((object) => object.label === "person").length).toBeGreaterThanOrEqual(2)
    for (const object of answer.objects) expect(inside(object.box, 1920, 1280)).toBe(true)
  }, 60_000)

  it("refuses bad images in the wrapper, and counts only the answered calls", async () => {
    const before = await usage()
    const text = Buffer.from("just some words, not a picture\n")
    // One after another: a key has 5 calls in flight at most.
    const cases: [() => Promise<{ status: number; body: { error?: { code: string } } }>, number, string][] = [
      [() => postJson("/api/v1/ocr", {}), 400, "VALIDATION_FAILED"],
      [() => postUpload("/api/v1/faces", null, { attributes: "true" }), 400, "VALIDATION_FAILED"],
      [() => postUpload("/api/v1/ocr", { name: "notes.txt", bytes: text, type: "text/plain" }), 415, "INVALID_IMAGE"],
      [() => postJson("/api/v1/objects", { image: { dataUrl: dataUrl(text, "text/plain") } }), 415, "INVALID_IMAGE"],
      // A PNG's signature with nothing readable after it.
      [() => postUpload("/api/v1/faces", { name: "broken.png", bytes: Buffer.concat([photo.subarray(0, 0), Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(64, 7)]), type: "image/png" }), 415, "INVALID_IMAGE"],
      [() => postUpload("/api/v1/ocr", { name: "huge.png", bytes: Buffer.concat([photo.subarray(0, 8), Buffer.alloc(11 * 1024 * 1024)]), type: "image/png" }), 413, "IMAGE_TOO_LARGE"],
      [() => postJson("/api/v1/faces", { image: { dataUrl: dataUrl(Buffer.alloc(11 * 1024 * 1024)) } }), 413, "IMAGE_TOO_LARGE"],
      [() => postUpload("/api/v1/objects", { name: "bomb.png", bytes: pixelBomb(), type: "image/png" }), 413, "IMAGE_TOO_LARGE"],
      [() => postJson("/api/v1/ocr", { image: { url: "http://127.0.0.1:9/secret.png" } }), 400, "URL_NOT_ALLOWED"],
      [() => postJson("/api/v1/ocr", { image: { url: "http://10.0.0.1/image.png" } }), 400, "URL_NOT_ALLOWED"],
      [() => postJson("/api/v1/faces", { image: { dataUrl: dataUrl(photo, "image/jpeg") }, detector: "best" }), 400, "VALIDATION_FAILED"]
    ]
    const truncatedForm = () =>
      subject.app
        .inject({
          method: "POST",
          url: "/api/v1/faces",
          headers: { authorization: `Bearer ${key}`, "content-type": "multipart/form-data; boundary=cut" },
          payload: '--cut\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG'
        })
        .then((response) => ({ status: response.statusCode, body: response.json() }))
    cases.push([truncatedForm, 400, "VALIDATION_FAILED"])
    for (const [call, status, code] of cases) {
      const { status: answered, body } = await call()
      expect([answered, body.error?.code]).toEqual([status, code])
    }
    const after = await usage()
    expect(after.byEndpoint).toEqual(before.byEndpoint)
  }, 60_000)
})

/** A valid PNG header claiming 20000 × 20000 pixels: a few bytes that would decode to 1.2 GB. */
function pixelBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(20_000, 0)
  header.writeUInt32BE(20_000, 4)
  header.set([8, 2, 0, 0, 0], 8)
  return Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(Buffer.alloc(1024))), chunk("IEND", Buffer.alloc(0))])
}

describe("the vision pool's queue", () => {
  it("refuses at once, with a time to come back, the calls it has no room for", async () => {
    const small = await startTestApp({}, { clock: Date.now, visionPool: { threads: 1, maxWaiting: 2 } })
    try {
      const owner = await signedInUser(small.app, "pro")
      const keys = await Promise.all(["one", "two"].map(async (name) => (await createdApiKey(small.app, owner.token, name)).key))
      const faces = (token: string) =>
        small.app.inject({ method: "POST", url: "/api/v1/faces", headers: { authorization: `Bearer ${token}` }, payload: { image: { dataUrl: dataUrl(photo, "image/jpeg") }, attributes: true } })
      // The thread is started and its models loaded: from here one call (over a second with attributes) runs while two wait.
      expect((await faces(keys[0]!)).statusCode).toBe(200)
      const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => faces(keys[index % 2]!)))
      const statuses = answers.map((answer) => answer.statusCode).sort()
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429])
      for (const refused of answers.filter((answer) => answer.statusCode === 429)) {
        const { error } = refused.json()
        expect(error.code).toBe("RATE_LIMIT_EXCEEDED")
        expect(error.retryAfter).toBeGreaterThanOrEqual(1)
      }
    } finally {
      await small.close()
    }
  }, 90_000)
})
