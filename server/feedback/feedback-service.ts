/**
 * Feedback: a submission kept with its images and its confirmation promised together, and the admin's reading,
 * answering, closing and deleting. The routes (./routes.ts) parse and authorise; the queries are in ./feedback-store.ts
 * and the files in ./image-store.ts.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify"

import type { FeedbackFlags, FeedbackStatus } from "~core/admin/feedback"

import { ApiError, notFound } from "../http/errors"
import { EMAIL_TEMPLATES } from "../mail/email-templates"
import { queueEmail } from "../mail/outbox"
import { StorageUnavailableError } from "../storage/object-storage"
import type { ConfirmationLimit } from "./confirmation-limit"
import type { Submission } from "./feedback-form"
import { DEFAULT_REPLY_AUTHOR } from "./feedback-schemas"
import { addReply, deleteFeedback, findFeedback, findFeedbackImage, insertFeedback, listFeedback, setFeedbackStatus } from "./feedback-store"
import type { FeedbackImageStore } from "./image-store"

const feedbackNotFound = () => notFound("This feedback does not exist.")

export function feedbackService(app: FastifyInstance, flags: FeedbackFlags, images: FeedbackImageStore, confirmations: ConfirmationLimit) {
  const db = app.database.db
  return {
    /** Files first, flushed and named, then the row: once the row exists, nothing it points to can be missing. */
    async submit(submission: Submission, log: FastifyBaseLogger) {
      const stored = await images.commit(submission.staged).catch((error: unknown) => {
        if (!(error instanceof StorageUnavailableError)) throw error
        log.error({ err: error }, "feedback images could not be stored")
        throw new ApiError(503, "SERVICE_UNAVAILABLE", "Your images could not be stored right now, so nothing was saved. Please try again in a few minutes.")
      })
      // The confirmation's limits are counted first: a limit store that cannot answer costs the mail, not the feedback.
      let confirm = false
      if (flags.emailNotifications) {
        const refusedBy = await confirmations.take(submission.email).catch((error: unknown) => {
          log.warn({ err: error }, "feedback confirmation limit unavailable")
          return "unavailable" as const
        })
        // The feedback itself is kept and acknowledged; only the mail is skipped. The address is no one's business at info level.
        if (refusedBy) log.info({ limit: refusedBy }, "feedback confirmation not sent: its hourly limit is reached")
        confirm = !refusedBy
      }
      try {
        // The confirmation is queued in the feedback's own transaction: stored and promised together.
        const content = EMAIL_TEMPLATES.feedbackConfirmation({ imageCount: stored.length })
        return await insertFeedback(db, { email: submission.email, message: submission.message, images: stored }, new Date(app.clock()), async (trx) => {
          if (confirm) await queueEmail(app, trx, { to: submission.email, what: "feedback confirmation", content })
        })
      } catch (error) {
        await images.remove(stored)
        throw error
      }
    },

    async list(input: { status?: FeedbackStatus; page: number; pageSize: number }) {
      const { items, counts, total } = await listFeedback(db, input)
      return { success: true as const, data: items, meta: { page: input.page, pageSize: input.pageSize, total, counts } }
    },

    /** An uploaded image's bytes and its row, or 404. */
    async image(name: string) {
      const row = await findFeedbackImage(db, name)
      const bytes = row ? await images.read(name) : null
      if (!row || !bytes) throw notFound("This image does not exist.")
      return { row, bytes }
    },

    async read(id: string) {
      const feedback = await findFeedback(db, id)
      if (!feedback) throw feedbackNotFound()
      return feedback
    },

    async setStatus(id: string, status: FeedbackStatus) {
      const feedback = await setFeedbackStatus(db, id, status, new Date(app.clock()))
      if (!feedback) throw feedbackNotFound()
      return feedback
    },

    /** The reply is kept, and e-mailed to the sender in its transaction when the server sends e-mails. */
    async reply(id: string, input: { message: string; adminEmail?: string }, adminUserId: string) {
      const message = input.message.trim()
      const feedback = await addReply(db, id, { message, adminEmail: input.adminEmail || DEFAULT_REPLY_AUTHOR, adminUserId }, new Date(app.clock()), async (trx, replied) => {
        if (!flags.emailNotifications) return
        const content = EMAIL_TEMPLATES.feedbackReply({ reply: message, originalMessage: replied.message })
        await queueEmail(app, trx, { to: replied.email, what: "feedback reply", content })
      })
      if (!feedback) throw feedbackNotFound()
      return feedback
    },

    /** The row goes, then its files. */
    async remove(id: string) {
      const files = await deleteFeedback(db, id)
      if (!files) throw feedbackNotFound()
      await images.remove(files)
    }
  }
}
