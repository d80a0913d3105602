/** Feedback images in S3-compatible object storage: s3rver on loopback stands in for the bucket. */
import fs from "node:fs/promises"
import path from "node:path"
import type { Readable } from "node:stream"

import S3rver from "s3rver"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"

import { makeTempDir, signedInUser, startTestApp, type TestApp } from "../test-kit"
import { FEEDBACK_IMAGES_PREFIX, ORPHAN_GRACE_MS } from "../feedback/image-store"
import { freePort } from "../../tests/free-port"
import { s3Storage } from "./s3-storage"

const PNG = await fs.readFile(path.resolve("tests/fixtures/square-64.png"))
const BUCKET = "iqa-uploads"
const CREDENTIALS = { S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER", S3_BUCKET: BUCKET }

let folder: string
let port: number
let server: S3rver | null = null
let subject: TestApp | null = null
let now = Date.UTC(2026, 10, 23, 12, 0, 0)

async function startS3() {
  server = new S3rver({ port, address: "127.0.0.1", silent: true, directory: folder, configureBuckets: [{ name: BUCKET, configs: [] }] })
  await server.run()
}
async function stopS3() {
  await server?.close()
  server = null
}

const endpoint = () => `http://127.0.0.1:${port}`
const bucket = () => s3Storage({ endpoint: endpoint(), region: "us-east-1", bucket: BUCKET, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }, FEEDBACK_IMAGES_PREFIX)
const bytesOf = async (stream: Readable) => Buffer.concat(await stream.toArray())

async function submit(app: TestApp, images: Buffer[]) {
  const form = new FormData()
  form.append("email", "visitor@example.com")
  form.append("message", "The side panel does not show my images.")
  for (const [index, bytes] of images.entries()) form.append("images", new Blob([new Uint8Array(bytes)], { type: "image/png" }), `shot-${index}.png`)
  const encoded = new Response(form)
  const response = await app.app.inject({
    method: "POST",
    url: "/api/feedback",
    headers: { "content-type": encoded.headers.get("content-type")! },
    payload: Buffer.from(await encoded.arrayBuffer())
  })
  return { status: response.statusCode, body: response.json() }
}

const rows = async (app: TestApp) => ({
  feedback: (await app.database.db.selectFrom("feedback").select("id").execute()).length,
  images: (await app.database.db.selectFrom("feedback_images").select("file_name").execute()).length
})

beforeAll(async () => {
  folder = await makeTempDir("iqa-s3rver-")
  port = await freePort()
  await startS3()
})
afterEach(async () => {
  await subject?.close()
  subject = null
  if (!server) await startS3()
})
afterAll(async () => {
  await stopS3()
  await fs.rm(folder, { recursive: true, force: true })
})

describe("feedback images in S3-compatible object storage", () => {
  it("stores each upload in the bucket before acknowledging it, serves it to an admin and deletes it with its feedback", async () => {
    subject = await startTestApp({ ...CREDENTIALS, S3_ENDPOINT: endpoint() })
    const images = [PNG, Buffer.concat([PNG, Buffer.from("second")])]
    const created = await submit(subject, images)
    expect(created.status).toBe(201)
    const names = (created.body.data.images as string[]).map((url) => url.split("/").pop()!)
    const objects = await bucket().list()
    expect(objects.map((object) => object.name).sort()).toEqual([...names].sort())
    for (const [index, name] of names.entries()) expect(await bytesOf((await bucket().read(name))!)).toEqual(images[index])
    // Nothing of it stays on this instance's disk.
    expect(await fs.readdir(path.join(subject.dataDir, "uploads", "incoming"))).toEqual([])
    await expect(fs.readdir(path.join(subject.dataDir, "uploads", "feedback"))).rejects.toThrow()

    const admin = await signedInUser(subject.app)
    await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
    const served = await subject.app.inject({ method: "GET", url: `/api/feedback-images/${names[0]}`, headers: { authorization: `Bearer ${admin.token}` } })
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload).toEqual(PNG)
    expect(served.headers["content-type"]).toBe("image/png")

    const overview = await subject.app.inject({ method: "GET", url: "/api/admin/overview", headers: { authorization: `Bearer ${admin.token}` } })
    expect(overview.json().data.health.checks.uploads.ok).toBe(true)

    const removed = await subject.app.inject({ method: "DELETE", url: `/api/feedback/${created.body.data.id}`, headers: { authorization: `Bearer ${admin.token}` } })
    expect(removed.statusCode).toBe(200)
    expect(await bucket().list()).toEqual([])
  })

  it("answers 503 in the wrapper when the storage is down, and keeps no half-made feedback", async () => {
    subject = await startTestApp({ ...CREDENTIALS, S3_ENDPOINT: endpoint() })
    const before = await rows(subject)
    await stopS3()
    const refused = await submit(subject, [PNG, PNG])
    expect(refused.status).toBe(503)
    expect(refused.body).toMatchObject({ success: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("nothing was saved") } })
    expect(await rows(subject)).toEqual(before)
    expect(await fs.readdir(path.join(subject.dataDir, "uploads", "incoming"))).toEqual([])
    // A message without images needs no storage and is still taken.
    expect((await submit(subject, [])).status).toBe(201)

    await startS3()
    expect(await bucket().list()).toEqual([])
    expect((await submit(subject, [PNG])).status).toBe(201)
    expect(await bucket().list()).toHaveLength(1)
  })

  it("at start keeps a young object no feedback names (another instance may be finishing it) and removes an old one", async () => {
    const staging = await makeTempDir("iqa-orphan-")
    const orphan = "00112233445566778899aabbccddeeff.png"
    await fs.writeFile(path.join(staging, "orphan"), PNG)
    await bucket().put(orphan, path.join(staging, "orphan"), "image/png")
    const uploadedAt = (await bucket().list()).find((object) => object.name === orphan)!.modifiedAt

    now = uploadedAt + 60_000
    subject = await startTestApp({ ...CREDENTIALS, S3_ENDPOINT: endpoint() }, { clock: () => now })
    expect((await bucket().list()).map((object) => object.name)).toContain(orphan)
    await subject.close()

    now = uploadedAt + ORPHAN_GRACE_MS + 1
    subject = await startTestApp({ ...CREDENTIALS, S3_ENDPOINT: endpoint() }, { clock: () => now })
    expect((await bucket().list()).map((object) => object.name)).not.toContain(orphan)
    await fs.rm(staging, { recursive: true, force: true })
  })
})
