/**
 * Renewing and ending a website session: the refresh token's rotation (./session-store.ts) and what it allows. A
 * refresh gives a new access token only to an account that still exists and is not disabled; signing out ends the
 * bearer's session and the refresh token's, whichever were sent.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify"

import { ApiError } from "../http/errors"
import type { Authenticated } from "./authenticate"
import { accountDisabled } from "./authenticate"
import { revokeSession, rotateRefreshToken } from "./session-store"
import { signAccessToken } from "./tokens"
import { findUserById } from "./user-store"

const sessionExpired = () => new ApiError(401, "SESSION_EXPIRED", "Your session has expired. Please sign in again.")

/** The next access and refresh tokens for a refresh token, which is used up; 401 SESSION_EXPIRED or 403 ACCOUNT_DISABLED. */
export async function refreshSession(app: FastifyInstance, refreshToken: string, log: FastifyBaseLogger) {
  const db = app.database.db
  const now = app.clock()
  const rotation = await rotateRefreshToken(db, refreshToken, now)
  if (rotation.outcome !== "rotated") {
    if (rotation.outcome === "reused") log.warn("a rotated refresh token was presented again; its session is revoked")
    throw sessionExpired()
  }
  const user = await findUserById(db, rotation.userId)
  if (!user) throw sessionExpired()
  if (user.disabled_at) throw accountDisabled()
  const { token, expiresAt } = await signAccessToken({ userId: user.id, role: user.role, sessionId: rotation.sessionId }, app.tokenSecret, now)
  return { token, refreshToken: rotation.refreshToken, expiresAt }
}

/** Ends the bearer's session and the refresh token's, when either was sent; nothing to end is no error. */
export async function signOut(app: FastifyInstance, auth: Authenticated | null, refreshToken: string | undefined): Promise<void> {
  const db = app.database.db
  const now = app.clock()
  if (auth) await revokeSession(db, auth.sessionId, now)
  if (refreshToken) {
    const rotation = await rotateRefreshToken(db, refreshToken, now)
    if (rotation.outcome === "rotated") await revokeSession(db, rotation.sessionId, now)
  }
}
