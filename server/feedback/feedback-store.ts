import type { Kysely, Selectable, Transaction } from "kysely"

import type { Feedback, FeedbackCounts, FeedbackStatus } from "~core/admin/feedback"
import { utcDayKey } from "~core/time"

import { countEvent } from "../admin/analytics/analytics-store"
import type { DatabaseSchema, FeedbackTable } from "../db/schema"
import { isUuid } from "../db/uuid"
import type { StoredImage } from "./image-store"

type Db = Kysely<DatabaseSchema>
type FeedbackRow = Selectable<FeedbackTable>

export function imageUrl(fileName: string): string {
  return `/api/feedback-images/${fileName}`
}

/** The rows as the API shows them, with their images in upload order and replies oldest first. */
async function toFeedback(db: Db, rows: FeedbackRow[]): Promise<Feedback[]> {
  if (!rows.length) return []
  const ids = rows.map((row) => row.id)
  const [images, replies] = await Promise.all([
    db.selectFrom("feedback_images").select(["feedback_id", "file_name"]).where("feedback_id", "in", ids).orderBy("position").execute(),
    db
      .selectFrom("feedback_replies")
      .select(["id", "feedback_id", "message", "admin_email", "created_at"])
      .where("feedback_id", "in", ids)
      .orderBy("created_at")
      .orderBy("id")
      .execute()
  ])
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    message: row.message,
    status: row.status,
    images: images.filter((image) => image.feedback_id === row.id).map((image) => imageUrl(image.file_name)),
    replies: replies
      .filter((reply) => reply.feedback_id === row.id)
      .map((reply) => ({ id: reply.id, message: reply.message, adminEmail: reply.admin_email, createdAt: new Date(reply.created_at).toISOString() })),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString()
  }))
}

/**
 * The feedback row and its image rows in one transaction, with what `within` adds (its confirmation e-mail): it exists
 * with all its images or not at all.
 */
export async function insertFeedback(
  db: Db,
  input: { email: string; message: string; images: StoredImage[] },
  now: Date,
  within?: (trx: Transaction<DatabaseSchema>) => Promise<void>
): Promise<Feedback> {
  const row = await db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto("feedback")
      .values({ email: input.email, message: input.message, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow()
    if (input.images.length) {
      await trx
        .insertInto("feedback_images")
        .values(
          input.images.map((image, position) => ({
            file_name: image.fileName,
            feedback_id: created.id,
            position,
            content_type: image.contentType,
            byte_size: image.byteSize,
            original_name: image.originalName
          }))
        )
        .execute()
    }
    // A feedback received that day, counted with it (the admin's analytics).
    await countEvent(trx, "feedback", utcDayKey(now))
    await within?.(trx)
    return created
  })
  return (await toFeedback(db, [row]))[0]!
}

export async function findFeedback(db: Db, id: string): Promise<Feedback | null> {
  if (!isUuid(id)) return null
  const row = await db.selectFrom("feedback").selectAll().where("id", "=", id).executeTakeFirst()
  return row ? (await toFeedback(db, [row]))[0]! : null
}

export async function countFeedback(db: Db): Promise<FeedbackCounts> {
  const rows = await db.selectFrom("feedback").select(["status", db.fn.countAll<string>().as("count")]).groupBy("status").execute()
  const counts: FeedbackCounts = { all: 0, pending: 0, replied: 0, closed: 0 }
  for (const row of rows) {
    counts[row.status] = Number(row.count)
    counts.all += Number(row.count)
  }
  return counts
}

/** Newest first. */
export async function listFeedback(db: Db, { status, page, pageSize }: { status?: FeedbackStatus; page: number; pageSize: number }) {
  let query = db.selectFrom("feedback").selectAll()
  if (status) query = query.where("status", "=", status)
  const [rows, counts] = await Promise.all([
    query.orderBy("created_at", "desc").orderBy("id", "desc").limit(pageSize).offset((page - 1) * pageSize).execute(),
    countFeedback(db)
  ])
  return { items: await toFeedback(db, rows), counts, total: status ? counts[status] : counts.all }
}

export async function setFeedbackStatus(db: Db, id: string, status: FeedbackStatus, now: Date): Promise<Feedback | null> {
  if (!isUuid(id)) return null
  const row = await db.updateTable("feedback").set({ status, updated_at: now }).where("id", "=", id).returningAll().executeTakeFirst()
  return row ? (await toFeedback(db, [row]))[0]! : null
}

/** Records a reply and marks the feedback replied, with what `within` adds to the transaction (the reply's e-mail). */
export async function addReply(
  db: Db,
  id: string,
  reply: { message: string; adminEmail: string; adminUserId: string },
  now: Date,
  within?: (trx: Transaction<DatabaseSchema>, feedback: { email: string; message: string }) => Promise<void>
): Promise<Feedback | null> {
  if (!isUuid(id)) return null
  const row = await db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable("feedback").set({ status: "replied", updated_at: now }).where("id", "=", id).returningAll().executeTakeFirst()
    if (!updated) return null
    await trx
      .insertInto("feedback_replies")
      .values({ feedback_id: id, message: reply.message, admin_email: reply.adminEmail, admin_user_id: reply.adminUserId, created_at: now })
      .execute()
    await within?.(trx, updated)
    return updated
  })
  return row ? (await toFeedback(db, [row]))[0]! : null
}

/** Deletes the row (images and replies cascade) and answers the file names to remove. */
export async function deleteFeedback(db: Db, id: string): Promise<{ fileName: string; byteSize: number }[] | null> {
  if (!isUuid(id)) return null
  return db.transaction().execute(async (trx) => {
    const images = await trx.selectFrom("feedback_images").select(["file_name", "byte_size"]).where("feedback_id", "=", id).execute()
    const deleted = await trx.deleteFrom("feedback").where("id", "=", id).returning("id").executeTakeFirst()
    return deleted ? images.map((image) => ({ fileName: image.file_name, byteSize: Number(image.byte_size) })) : null
  })
}

/** How an admin is served a stored image; undefined for a name no feedback has. */
export function findFeedbackImage(db: Db, fileName: string) {
  return db.selectFrom("feedback_images").select(["content_type", "byte_size"]).where("file_name", "=", fileName).executeTakeFirst()
}

export async function storedImageNames(db: Db): Promise<Set<string>> {
  const rows = await db.selectFrom("feedback_images").select("file_name").execute()
  return new Set(rows.map((row) => row.file_name))
}
