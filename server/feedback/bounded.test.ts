/**
 * Uploads over a real socket: a body declared or streamed past the cap, and one that stalls or
 * trickles, always end (an answer in the wrapper, then the connection closes) and leave nothing stored.
 */
import fs from "node:fs/promises"
import net from "node:net"
import path from "node:path"

import { afterAll, beforeAll, expect, it, vi } from "vitest"

import { startTestApp, type TestApp } from "../test-kit"

const BODY_CAP = 64 * 1024
const BOUNDARY = "----bounded"
let subject: TestApp
let port: number

beforeAll(async () => {
  subject = await startTestApp({}, { feedbackLimits: { bodyBytes: BODY_CAP }, requestTimeouts: { requestMs: 600, checkIntervalMs: 50 } })
  await subject.app.listen({ host: "127.0.0.1", port: 0 })
  port = (subject.app.server.address() as net.AddressInfo).port
})
afterAll(async () => subject?.close())

async function filesIn(folder: "incoming" | "feedback") {
  return fs.readdir(path.join(subject.dataDir, "uploads", folder))
}

const formStart = Buffer.from(
  [
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="email"',
    "",
    "slow@example.com",
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="message"',
    "",
    "An upload that does not end.",
    `--${BOUNDARY}`,
    'Content-Disposition: form-data; name="images"; filename="endless.png"',
    "Content-Type: image/png",
    "",
    "\x89PNG\r\n\x1a\n"
  ].join("\r\n"),
  "latin1"
)

/** Opens a POST /api/feedback with these extra headers; resolves with what the server sent once it closed the connection. */
function openUpload(headers: Record<string, string>) {
  const socket = net.connect(port, "127.0.0.1")
  let received = ""
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")))
  // Writing into a connection the server closed fails: expected here.
  socket.on("error", () => {})
  const closed = new Promise<{ status: number; body: unknown }>((resolve) =>
    socket.on("close", () => {
      const [head = "", body = ""] = received.split("\r\n\r\n")
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), body: body ? JSON.parse(body) : null })
    })
  )
  const lines = [
    "POST /api/feedback HTTP/1.1",
    "Host: 127.0.0.1",
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
  ]
  socket.write(`${lines.join("\r\n")}\r\n\r\n`)
  return { socket, closed }
}

/** Writes the chunk again and again until the server closes the connection. */
function keepSending(socket: net.Socket, chunk: Buffer, everyMs: number) {
  const timer = setInterval(() => {
    if (socket.destroyed || !socket.writable) return clearInterval(timer)
    socket.write(chunk)
  }, everyMs)
  socket.on("close", () => clearInterval(timer))
}

const chunked = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")])

async function expectNothingStored(before: string[]) {
  await vi.waitFor(async () => expect(await filesIn("incoming")).toEqual([]), { timeout: 10_000 })
  expect(await filesIn("feedback")).toEqual(before)
  const rows = await subject.database.db.selectFrom("feedback").select("id").where("email", "=", "slow@example.com").execute()
  expect(rows).toEqual([])
}

it("refuses a body declared larger than the cap with 413 before reading it, and closes the connection", async () => {
  const before = await filesIn("feedback")
  const upload = openUpload({ "Content-Length": String(BODY_CAP + 1) })
  upload.socket.write(formStart)
  const answer = await upload.closed
  expect(answer.status).toBe(413)
  expect(answer.body).toMatchObject({ success: false, error: { code: "PAYLOAD_TOO_LARGE", message: "Validation failed: The form is too large. Send at most 5 images of up to 5MB each." } })
  await expectNothingStored(before)
})

it("stops a chunked body that never ends once it passes the cap: 413, connection closed, nothing stored", async () => {
  const before = await filesIn("feedback")
  const upload = openUpload({ "Transfer-Encoding": "chunked" })
  upload.socket.write(chunked(formStart))
  keepSending(upload.socket, chunked(Buffer.alloc(8 * 1024, 7)), 1)
  const answer = await upload.closed
  expect(answer.status).toBe(413)
  expect(answer.body).toMatchObject({ success: false, error: { code: "PAYLOAD_TOO_LARGE" } })
  await expectNothingStored(before)
})

it("ends an upload that stalls with 408 in the wrapper, and keeps nothing of it", async () => {
  const before = await filesIn("feedback")
  const upload = openUpload({ "Content-Length": String(BODY_CAP - 1) })
  upload.socket.write(formStart)
  const answer = await upload.closed
  expect(answer.status).toBe(408)
  expect(answer.body).toEqual({ success: false, error: { code: "REQUEST_TIMEOUT", message: "The request took too long to arrive. Please try again." } })
  await expectNothingStored(before)
})

it("ends an upload that trickles in below the cap, byte by byte, when its time is up", async () => {
  const before = await filesIn("feedback")
  const upload = openUpload({ "Content-Length": String(BODY_CAP - 1) })
  upload.socket.write(formStart)
  keepSending(upload.socket, Buffer.from("x"), 20)
  const answer = await upload.closed
  expect(answer.status).toBe(408)
  await expectNothingStored(before)
})
