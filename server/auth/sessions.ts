import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

import type { Kysely } from "kysely"

import type { DatabaseSchema } from "../db/schema"
import { REFRESH_REUSE_GRACE_MS, REFRESH_TOKEN_LIFETIME_MS } from "./auth-timers"
import { hashToken, randomToken } from "./tokens"

export type SessionClient = "site" | "extension"

type Db = Kysely<DatabaseSchema>

/** Seals the last issued refresh token for the grace window; the key never leaves the server. */
function graceKey(secret: string): Buffer {
  return createHash("sha256").update(`refresh-grace:${secret}`).digest()
}

function seal(token: string, secret: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", graceKey(secret), iv)
  const sealed = Buffer.concat([cipher.update(token, "utf8"), cipher.final()])
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".")
}

function unseal(value: string, secret: string): string | null {
  try {
    const [iv, tag, sealed] = value.split(".").map((part) => Buffer.from(part, "base64url"))
    if (!iv || !tag || !sealed) return null
    const decipher = createDecipheriv("aes-256-gcm", graceKey(secret), iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString("utf8")
  } catch {
    return null
  }
}

export async function createSession(db: Db, userId: string, client: SessionClient, now: number) {
  const refreshToken = randomToken()
  const session = await db
    .insertInto("sessions")
    .values({
      user_id: userId,
      client,
      token_hash: hashToken(refreshToken),
      created_at: new Date(now),
      last_used_at: new Date(now),
      expires_at: new Date(now + REFRESH_TOKEN_LIFETIME_MS)
    })
    .returning(["id"])
    .executeTakeFirstOrThrow()
  return { sessionId: session.id, refreshToken }
}

export type RotationResult =
  | { outcome: "rotated"; sessionId: string; userId: string; refreshToken: string }
  | { outcome: "invalid" }
  /** A retired token came back outside the grace window: the whole session was revoked. */
  | { outcome: "reused" }

/**
 * Exchanges a refresh token for a new one (rotation). A token rotated away from less than the
 * grace window ago is answered with the same new token, so two tabs refreshing at once agree;
 * any other retired token revokes its session.
 */
export async function rotateRefreshToken(db: Db, presented: string, secret: string, now: number): Promise<RotationResult> {
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
          grace_token: seal(refreshToken, secret),
          rotated_at: new Date(now),
          last_used_at: new Date(now),
          expires_at: new Date(now + REFRESH_TOKEN_LIFETIME_MS)
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
        "sessions.rotated_at as rotatedAt",
        "sessions.grace_token as graceToken",
        "retired_refresh_tokens.retired_at as retiredAt"
      ])
      .where("retired_refresh_tokens.token_hash", "=", presentedHash)
      .forUpdate()
      .executeTakeFirst()
    if (!retired) return { outcome: "invalid" as const }
    if (retired.revokedAt) return { outcome: "invalid" as const }

    const isLatestRotation = retired.rotatedAt?.getTime() === retired.retiredAt.getTime()
    const withinGrace = now - retired.retiredAt.getTime() <= REFRESH_REUSE_GRACE_MS
    const graceToken = retired.graceToken ? unseal(retired.graceToken, secret) : null
    if (isLatestRotation && withinGrace && graceToken) {
      return { outcome: "rotated" as const, sessionId: retired.sessionId, userId: retired.userId, refreshToken: graceToken }
    }
    await trx.updateTable("sessions").set({ revoked_at: new Date(now), grace_token: null }).where("id", "=", retired.sessionId).execute()
    return { outcome: "reused" as const }
  })
}

export async function revokeSession(db: Db, sessionId: string, now: number): Promise<void> {
  await db.updateTable("sessions").set({ revoked_at: new Date(now), grace_token: null }).where("id", "=", sessionId).where("revoked_at", "is", null).execute()
}

/** Revokes every session of a user, except the one named (a password change keeps the current one). */
export async function revokeUserSessions(db: Db, userId: string, now: number, { except }: { except?: string } = {}): Promise<void> {
  let query = db.updateTable("sessions").set({ revoked_at: new Date(now), grace_token: null }).where("user_id", "=", userId).where("revoked_at", "is", null)
  if (except) query = query.where("id", "!=", except)
  await query.execute()
}

export async function isSessionActive(db: Db, sessionId: string, now: number): Promise<boolean> {
  const session = await db.selectFrom("sessions").select(["revoked_at", "expires_at"]).where("id", "=", sessionId).executeTakeFirst()
  return Boolean(session && !session.revoked_at && session.expires_at.getTime() > now)
}
