import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { ACCOUNT_DISABLED_MESSAGE } from "~core/admin/admin-users"
import { ACCOUNT_SUSPENDED_MESSAGE } from "~core/scim"

import { noteActiveUser } from "../admin/analytics/activity"
import { settleDueSubscription } from "../billing/subscription-changes"
import { ApiError, signInRequired } from "../http/errors"
import { isSuspended } from "../organizations/scim/scim-store"
import { activeSessionClient, type SessionClient } from "./session-store"
import { verifyAccessToken } from "./tokens"
import { findUserById, type UserRow } from "./user-store"

export interface Authenticated {
  user: UserRow
  sessionId: string
  /** Whose session it is: the site's, or the extension's (which may not change how the account signs in). */
  client: SessionClient
}

declare module "fastify" {
  interface FastifyRequest {
    auth: Authenticated | null
  }
}

/** The token of an `Authorization: Bearer …` header; null without one. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (typeof header !== "string") return null
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim())
  return match?.[1] ?? null
}

/** 403 ACCOUNT_DISABLED: what a disabled account's sign-in, refresh and API keys are answered. */
export const accountDisabled = () => new ApiError(403, "ACCOUNT_DISABLED", ACCOUNT_DISABLED_MESSAGE)

/** 403 ACCOUNT_SUSPENDED: what a member their organisation suspended (SCIM, active: false) is answered, on every call. */
export const accountSuspended = () => new ApiError(403, "ACCOUNT_SUSPENDED", ACCOUNT_SUSPENDED_MESSAGE)

/** 403 ACCOUNT_SUSPENDED when an organisation has suspended `userId`: read from the database each time, so on every instance at once. */
export async function refuseSuspended(app: FastifyInstance, userId: string): Promise<void> {
  if (await isSuspended(app.database.db, userId)) throw accountSuspended()
}

/**
 * Reads the bearer token of a request: a valid signature, an unexpired token, a live session of the token's user and
 * an existing, enabled user. Roles and the disabled mark come from the database, so a change applies at once on every
 * instance: a disabled account's sessions end with it, and a token signed a moment before is refused here too.
 */
export async function authenticate(app: FastifyInstance, request: FastifyRequest): Promise<Authenticated | null> {
  const token = bearerToken(request)
  if (!token) return null
  const now = app.clock()
  const claims = await verifyAccessToken(token, app.tokenSecret, now)
  if (!claims) return null
  const client = await activeSessionClient(app.database.db, claims.sid, claims.sub, now)
  if (!client) return null
  const user = await findUserById(app.database.db, claims.sub)
  if (!user || user.disabled_at) return null
  // Analytics: the account was active today (one write per account, day and instance).
  await noteActiveUser(app, user.id, now)
  return { user: await settleDueSubscription(app, user), sessionId: claims.sid, client }
}

export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest("auth", null)
}

/** preHandler: 401 without a valid token. */
export async function requireUser(this: FastifyInstance, request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  request.auth = await authenticate(this, request)
  if (!request.auth) throw signInRequired()
  // Suspension ends the member's sessions; this refuses one opened at that very moment, and says why.
  await refuseSuspended(this, request.auth.user.id)
}

// requireAdmin, the admin routes' hook, is in require-admin.ts: it reads the two-step feature, which imports this file.
