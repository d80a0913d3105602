// What a server's settings and limits do to feedback: feature flags, the confirmation e-mails' limits, the disk budget.
import fs from "node:fs/promises"
import path from "node:path"

import { describe, expect, it } from "vitest"

import { makeTempDir, readOutbox, signedInUser, startTestApp } from "../test-kit"
import { folderStorage } from "../storage/folder-storage"
import { FEEDBACK_CONFIRMATIONS_PER_ADDRESS } from "./confirmation-limit"
import { PNG, setUpFeedbackApp, storedState, subject, submit, valid } from "./feedback-test-kit"
import { feedbackImagesDir, FeedbackImageStore } from "./image-store"

setUpFeedbackApp()

describe("feature flags", () => {
  it("without fileUploads images are refused, without emailNotifications no e-mail is sent", async () => {
    const off = await startTestApp({}, { feedbackFlags: { fileUploads: false, emailNotifications: false } })
    try {
      const before = await storedState(off)
      const refused = await submit(valid, [{ name: "a.png", type: "image/png", bytes: PNG }], off)
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toBe("Validation failed: Image uploads are turned off.")
      expect(await storedState(off)).toEqual(before)
      const created = await submit(valid, [], off)
      expect(created.status).toBe(201)

      const admin = await signedInUser(off.app)
      await off.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
      const reply = await off.app.inject({
        method: "POST",
        url: `/api/feedback/${created.body.data.id}/reply`,
        headers: { authorization: `Bearer ${admin.token}` },
        payload: { message: "Thanks!" }
      })
      expect(reply.json().data.status).toBe("replied")
      await off.app.outbox.idle()
      expect(await readOutbox(off.dataDir)).toEqual([])
    } finally {
      await off.close()
    }
  })
})

describe("confirmation e-mails", () => {
  it("go at most 3 times per address an hour, even to 20 submissions at once; every submission is still stored", async () => {
    const address = "burst-target@example.com"
    const before = await storedState()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => submit({ email: index % 2 ? address : address.toUpperCase(), message: `Spam attempt number ${index}.` }))
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201))
    expect((await storedState()).feedback).toBe(before.feedback + 20)
    await subject.app.outbox.idle()
    const sent = (await readOutbox(subject.dataDir)).filter((mail) => mail.to.toLowerCase() === address)
    expect(sent).toHaveLength(FEEDBACK_CONFIRMATIONS_PER_ADDRESS)
  })

  it("go at most the server's hourly number in all, and again once the hour has passed", async () => {
    let now = Date.parse("2026-03-01T10:00:00Z")
    const logLines: string[] = []
    const limited = await startTestApp(
      { LOG_LEVEL: "info" },
      { clock: () => now, feedbackLimits: { confirmationsPerServer: 5 }, logStream: { write: (line: string) => void logLines.push(line) } }
    )
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => submit({ email: `reader${index}@example.com`, message: `Feedback number ${index} here.` }, [], limited))
      )
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201))
      await limited.app.outbox.idle()
      expect(await readOutbox(limited.dataDir)).toHaveLength(5)
      expect((await storedState(limited)).feedback).toBe(20)
      const skipped = logLines.filter((line) => line.includes("feedback confirmation not sent"))
      expect(skipped).toHaveLength(15)
      // At info level the skipped recipients are not named.
      expect(logLines.join("")).not.toMatch(/reader\d+@example\.com/)

      now += 60 * 60_000
      expect((await submit({ email: "later@example.com", message: "An hour later, one more." }, [], limited)).status).toBe(201)
      await limited.app.outbox.idle()
      expect((await readOutbox(limited.dataDir)).map((mail) => mail.to)).toContain("later@example.com")
    } finally {
      await limited.close()
    }
  })
})

describe("the disk budget of uploads", () => {
  it("never lets 20 parallel uploads pass it: the rest get 507 in the wrapper and leave nothing; deleting makes room", async () => {
    const budget = 5 * PNG.length
    const small = await startTestApp({}, { feedbackLimits: { diskBudgetBytes: budget } })
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => submit({ email: `disk${index}@example.com`, message: `Upload number ${index} with an image.` }, [{ name: `${index}.png`, type: "image/png", bytes: PNG }], small))
      )
      const accepted = answers.filter((answer) => answer.status === 201)
      expect(accepted).toHaveLength(5)
      for (const refused of answers.filter((answer) => answer.status !== 201)) {
        expect(refused.status).toBe(507)
        expect(refused.body).toEqual({
          success: false,
          error: { code: "INSUFFICIENT_STORAGE", message: "The server has no room for more images right now. Please send your feedback without images, or try again later." }
        })
      }
      const state = await storedState(small)
      expect(state).toMatchObject({ feedback: 5, images: 5, incoming: [] })
      expect(state.stored).toHaveLength(5)

      // Feedback without images still arrives.
      expect((await submit(valid, [], small)).status).toBe(201)
      expect((await submit(valid, [{ name: "more.png", type: "image/png", bytes: PNG }], small)).status).toBe(507)

      const admin = await signedInUser(small.app)
      await small.database.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.id).execute()
      const removed = await small.app.inject({ method: "DELETE", url: `/api/feedback/${accepted[0]!.body.data.id}`, headers: { authorization: `Bearer ${admin.token}` } })
      expect(removed.statusCode).toBe(200)
      expect((await submit(valid, [{ name: "again.png", type: "image/png", bytes: PNG }], small)).status).toBe(201)
    } finally {
      await small.close()
    }
  })

  it("counts the images already on disk when it starts", async () => {
    const dataDir = await makeTempDir()
    try {
      const storage = folderStorage(feedbackImagesDir(dataDir))
      const first = new FeedbackImageStore(dataDir, storage, 3 * PNG.length)
      await first.prepare(async () => new Set())
      const kept = "0123456789abcdef0123456789abcdef.png"
      const orphan = "fedcba9876543210fedcba9876543210.png"
      await fs.writeFile(path.join(feedbackImagesDir(dataDir), kept), Buffer.concat([PNG, PNG]))
      await fs.writeFile(path.join(feedbackImagesDir(dataDir), orphan), PNG)
      // Its time after the start's clock, as for a file written in the same millisecond (the file's time has its
      // fraction, the clock's none): an orphan all the same.
      const ahead = (Date.now() + 2_000) / 1000
      await fs.utimes(path.join(feedbackImagesDir(dataDir), orphan), ahead, ahead)
      const restarted = new FeedbackImageStore(dataDir, storage, 3 * PNG.length)
      await restarted.prepare(async () => new Set([kept]))
      expect(restarted.used).toBe(2 * PNG.length)
      // The folder is this instance's alone: a file no feedback names is what a crash left, and goes at once.
      expect((await storage.list()).map((object) => object.name)).toEqual([kept])
      const staged = { tempPath: "", contentType: "image/png" as const, byteSize: 0, originalName: "a.png", reservedBytes: 0 }
      expect(restarted.reserve(staged, PNG.length + 1)).toBe(false)
      expect(restarted.reserve(staged, PNG.length)).toBe(true)
      expect(restarted.used).toBe(3 * PNG.length)
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true })
    }
  })
})
