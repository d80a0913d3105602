/**
 * What the feedback API tests share (feedback-*.test.ts): images to upload, an app with an admin and a user signed in,
 * multipart submissions from an address of their own, and what is stored (rows and files).
 */
import fs from "node:fs/promises"
import path from "node:path"

import { afterAll, beforeAll } from "vitest"

import { signedInUser, startTestApp, type TestApp } from "../test-kit"

export const PNG = await fs.readFile(new URL("../../tests/fixtures/square-64.png", import.meta.url))
/** A 1×1 GIF. */
export const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64")
/** A JPEG's header: the signature, a JFIF segment and a frame header (2 × 2 pixels), then filler: the server reads headers only. */
export function jpegDeclaring(width: number, height: number): Buffer {
  const jfif = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
  const frame = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
  return Buffer.concat([Buffer.from([0xff, 0xd8, ...jfif, ...frame]), Buffer.alloc(300, 7)])
}
export const JPEG = jpegDeclaring(2, 2)
/** The PNG fixture with its IHDR rewritten to declare another size. */
export function pngDeclaring(width: number, height: number): Buffer {
  const png = Buffer.from(PNG)
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  return png
}

interface Upload {
  name: string
  type: string
  bytes: Buffer
}

/** The app under test of the file that called setUpFeedbackApp, and the tokens of its admin and of a user. */
export let subject: TestApp
export let adminToken: string
export let userToken: string
let ip = 0

/** Starts the app for the calling test file with an admin and a user signed in, and closes it after the file's tests. */
export function setUpFeedbackApp(): void {
  beforeAll(async () => {
    subject = await startTestApp()
    const admin = await signedInUser(subject.app)
    await subject.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
    adminToken = admin.token
    userToken = (await signedInUser(subject.app)).token
  })
  afterAll(async () => subject?.close())
}

async function multipart(fields: Record<string, string>, images: Upload[] = [], fileField = "images") {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  for (const image of images) form.append(fileField, new Blob([new Uint8Array(image.bytes)], { type: image.type }), image.name)
  const encoded = new Response(form)
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! }
}

export async function submit(fields: Record<string, string>, images: Upload[] = [], target: TestApp = subject, fileField?: string) {
  const { payload, contentType } = await multipart(fields, images, fileField)
  const response = await target.app.inject({
    method: "POST",
    url: "/api/feedback",
    remoteAddress: `10.30.${Math.floor(++ip / 250)}.${ip % 250}`,
    headers: { "content-type": contentType },
    payload
  })
  return { status: response.statusCode, body: response.json() }
}

export async function call(method: "GET" | "PUT" | "POST" | "DELETE", url: string, token?: string, body?: unknown) {
  const response = await subject.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body !== undefined ? { payload: body as object } : {})
  })
  return { status: response.statusCode, body: String(response.headers["content-type"]).includes("json") ? response.json() : null, response }
}

export const valid = { email: "visitor@example.com", message: "The side panel does not show my images." }

/** What a refused submission must leave untouched: rows and files. */
export async function storedState(target: TestApp = subject) {
  const db = target.database.db
  const count = async (table: "feedback" | "feedback_images") =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow()).n)
  const files = async (folder: string) => (await fs.readdir(path.join(target.dataDir, "uploads", folder)).catch(() => [])).sort()
  return { feedback: await count("feedback"), images: await count("feedback_images"), stored: await files("feedback"), incoming: await files("incoming") }
}
