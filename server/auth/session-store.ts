import type { Kysely, Transaction } from "kysely"

import type { DatabaseSchema } from "../db/schema"
import { REFRESH_REUSE_GRACE_MS, REFRESH_TOKEN_LIFETIME_MS, SESSION_ABSOLUTE_LIFETIME_MS } from "./auth-timers"
import { hashToken, randomToken } from "./tokens"

export type SessionClient = "site" | "extension"

type Db = Kysely<DatabaseSchema>

/** A refresh keeps the session for REFRESH_TOKEN_LIFETIME_MS more, never past its absolute end. */
const nextExpiry = (now: number, absoluteExpiresAt: Date) => new Date(Math.min(now + REFRESH_TOKEN_LIFETIME_MS, absoluteExpiresAt.getTime()))

async function insertSession(
  db: Db | Transaction<DatabaseSchema>,
  session: { userId: string; client: SessionClient; parentSessionId?: string; absoluteExpiresAt: Date },
  now: number
) {
  const refreshToken = randomToken()
  const row = await db
    .insertInto("sessions")
    .values({
      user_id: session.userId,
      client: session.client,
      parent_session_id: session.parentSessionId ?? null,
      token_hash: hashToken(refreshToken),
      created_at: new Date(now),
      last_used_at: new Date(now),
      expires_at: nextExpiry(now, session.absoluteExpiresAt),
      absolute_expires_at: session.absoluteExpiresAt
    })
    .returning(["id"])
    .executeTakeFirstOrThrow()
  return { sessionId: row.id, refreshToken }
}

/** A site sign-in: a session of its own, ending SESSION_ABSOLUTE_LIFETIME_MS from now at the latest. */
export async function createSession(db: Db | Transaction<DatabaseSchema>, userId: string, now: number) {
  return insertSession(db, { userId, client: "site", absoluteExpiresAt: new Date(now + SESSION_ABSOLUTE_LIFETIME_MS) }, now)
}

export type ExtensionSessionResult =
  | { outcome: "opened"; sessionId: string; refreshToken: string }
  /** The parent is an extension session: a copied extension token must not breed sessions. */
  | { outcome: "not-site" }
  | { outcome: "inactive" }

/**
 * Opens the extension's session under a live site session, ending the one it had before. The site session's row
 * is locked meanwhile, so opens racing from the same site session leave exactly one live extension session. The
 * extension session ends when the site session does (see revokeSessions) and never outlives it.
 */
export async function openExtensionSession(db: Db, parentSessionId: string, now: number): Promise<ExtensionSessionResult> {
  return db.transaction().execute(async (trx) => {
    const parent = await trx
      .selectFrom("sessions")
      .select(["id", "user_id", "client", "revoked_at", "expires_at", "absolute_expires_at"])
      .where("id", "=", parentSessionId)
      .forUpdate()
      .executeTakeFirst()
    if (!parent || parent.revoked_at || parent.expires_at.getTime() <= now) return { outcome: "inactive" as const }
    if (parent.client !== "site") return { outcome: "not-site" as const }
    await trx.updateTable("sessions").set({ revoked_at: new Date(now) }).where("parent_session_id", "=", parent.id).where("revoked_at", "is", null).execute()
    const opened = await insertSession(trx, { userId: parent.user_id, client: "extension", parentSessionId: parent.id, absoluteExpiresAt: parent.absolute_expires_at }, now)
    return { outcome: "opened" as const, ...opened }
  })
}

export type RotationResult =
  /** refreshToken is null for a twin presentation within the grace window: a new access token only. */
  | { outcome: "rotated"; sessionId: string; userId: string; refreshToken: string | null }
  | { outcome: "invalid" }
  /** A retired token came back outside the grace window: the whole session was revoked. */
  | { outcome: "reused" }

/**
 * Exchanges a refresh token for a new one (rotation). The token rotated away from last, presented again within the
 * grace window (two tabs refreshing at once), is answered without a refresh token: whoever refreshed first holds
 * the newest one, and a copy of the old token must never obtain it. Any other retired token revokes its session.
 */
export async function rotateRefreshToken(db: Db, presented: string, now: number): Promise<RotationResult> {
  const presentedHash = hashToken(presented)
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("sessions")
      .selectAll()
      .where("token_hash", "=", presentedHash)
      .forUpdate()
      .executeTakeFirst()
    if (current) {
      if (current.revoked_at || current.expires_at.getTime() <= now) return { outcome: "invalid" as const }
      const refreshToken = randomToken()
      await trx.insertInto("retired_refresh_tokens").values({ token_hash: presentedHash, session_id: current.id, retired_at: new Date(now) }).execute()
      await trx
        .updateTable("sessions")
        .set({
          token_hash: hashToken(refreshToken),
          rotated_at: new Date(now),
          last_used_at: new Date(now),
          expires_at: nextExpiry(now, current.absolute_expires_at)
        })
        .where("id", "=", current.id)
        .execute()
      return { outcome: "rotated" as const, sessionId: current.id, userId: current.user_id, refreshToken }
    }

    const retired = await trx
      .selectFrom("retired_refresh_tokens")
      .innerJoin("sessions", "sessions.id", "retired_refresh_tokens.session_id")
      .select([
        "sessions.id as sessionId",
        "sessions.user_id as userId",
        "sessions.revoked_at as revokedAt",
        "sessions.expires_at as expiresAt",
        "sessions.rotated_at as rotatedAt",
        "retired_refresh_tokens.retired_at as retiredAt"
      ])
      .where("retired_refresh_tokens.token_hash", "=", presentedHash)
      .forUpdate()
      .executeTakeFirst()
    if (!retired) return { outcome: "invalid" as const }
    if (retired.revokedAt || retired.expiresAt.getTime() <= now) return { outcome: "invalid" as const }

    const isLatestRotation = retired.rotatedAt?.getTime() === retired.retiredAt.getTime()
    const withinGrace = now - retired.retiredAt.getTime() <= REFRESH_REUSE_GRACE_MS
    if (isLatestRotation && withinGrace) {
      return { outcome: "rotated" as const, sessionId: retired.sessionId, userId: retired.userId, refreshToken: null }
    }
    await revokeSessions(trx, [retired.sessionId], now)
    return { outcome: "reused" as const }
  })
}

/** Ends the given sessions and the extension sessions opened from them (a logout, a detected reuse). */
async function revokeSessions(db: Db | Transaction<DatabaseSchema>, sessionIds: string[], now: number): Promise<void> {
  if (sessionIds.length === 0) return
  await db
    .updateTable("sessions")
    .set({ revoked_at: new Date(now) })
    .where("revoked_at", "is", null)
    .where((eb) => eb.or([eb("id", "in", sessionIds), eb("parent_session_id", "in", sessionIds)]))
    .execute()
}

export async function revokeSession(db: Db, sessionId: string, now: number): Promise<void> {
  await revokeSessions(db, [sessionId], now)
}

/**
 * Revokes every session of a user, extension sessions included, except the one named (a password change keeps the
 * current one). Only a site session can be kept: an extension session kept while its site session ends would
 * outlive it. Answers how many sessions it ended (the audit log records the number).
 */
export async function revokeUserSessions(db: Db | Transaction<DatabaseSchema>, userId: string, now: number, { except }: { except?: string } = {}): Promise<number> {
  let query = db.updateTable("sessions").set({ revoked_at: new Date(now) }).where("user_id", "=", userId).where("revoked_at", "is", null)
  if (except) query = query.where((eb) => eb.or([eb("id", "!=", except), eb("parent_session_id", "is not", null)]))
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/**
 * The client of the session (site or extension) when it is live for this user: it exists, belongs to `userId` (a token naming one user and another user's session is
 * refused, whoever signed it), is not revoked and not expired; expires_at never passes the absolute end.
 */
export async function activeSessionClient(db: Db, sessionId: string, userId: string, now: number): Promise<SessionClient | null> {
  const session = await db.selectFrom("sessions").select(["user_id", "client", "revoked_at", "expires_at"]).where("id", "=", sessionId).executeTakeFirst()
  const live = session && session.user_id === userId && !session.revoked_at && session.expires_at.getTime() > now
  return live ? (session.client as SessionClient) : null
}

/** When the user last proved who they are for this session: an extension session counts its site session's sign-in. */
export async function sessionSignedInAt(db: Db, sessionId: string): Promise<Date | undefined> {
  const row = await db
    .selectFrom("sessions")
    .leftJoin("sessions as parent", "parent.id", "sessions.parent_session_id")
    .select(["sessions.created_at as createdAt", "parent.created_at as parentCreatedAt"])
    .where("sessions.id", "=", sessionId)
    .executeTakeFirst()
  return row ? (row.parentCreatedAt ?? row.createdAt) : undefined
}
