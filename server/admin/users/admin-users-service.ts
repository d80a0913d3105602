/**
 * The admin panel's accounts: find them, read one, change its role, disable or enable it, resend its verification
 * link, end its sessions and set its monthly request limit. Each change is written to the audit log in its own
 * transaction, with the admin as actor and the account as subject. The last active admin (an enabled admin account)
 * can be neither demoted nor disabled, and that holds for changes racing one another (admin-users-store.ts locks).
 */
import type { FastifyInstance } from "fastify"

import { LAST_ADMIN_MESSAGE, type AdminUserDetail, type AdminUserList, type AdminUsersQuery, type AdminUserSummary, type AdminUserUpdate } from "~core/admin/admin-users"
import type { AuditEventKind } from "~core/admin/audit"
import type { PlanId } from "~core/billing/plans"
import { monthKey } from "~core/time"

import { recordAuditEvent } from "../../audit/audit-log-store"
import { queueVerificationEmail } from "../../auth/account-emails"
import type { UserRow } from "../../auth/user-store"
import { planOf } from "../../billing/plan"
import { settleDueSubscription } from "../../billing/subscription-changes"
import { toSubscription } from "../../billing/subscription-view"
import { findRecord } from "../../billing/subscription-store"
import { inTransaction, type Db } from "../../db/transaction"
import { ApiError, notFound } from "../../http/errors"
import { findMembership } from "../../organizations/organization-store"
import { quotaSourceOf, usedOf } from "../../quota/quota-service"
import * as store from "./admin-users-store"

const noSuchUser = () => notFound("No account has this id.")

/** Who acts, and from where: what every audit row of this feature carries. */
export interface AdminActor {
  adminId: string
  ip: string
}

const iso = (date: Date | null) => date?.toISOString() ?? null

export function toSummary(row: UserRow): AdminUserSummary {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    plan: planOf(row),
    verified: row.email_verified_at !== null,
    disabled: row.disabled_at !== null,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: iso(row.last_sign_in_at)
  }
}

const isActiveAdmin = (role: UserRow["role"], disabled: boolean) => role === "admin" && !disabled

export function adminUserService(app: FastifyInstance) {
  const db = app.database.db
  const now = () => new Date(app.clock())

  const audit = (trx: Db, kind: AuditEventKind, actor: AdminActor, subject: UserRow, detail: Record<string, string | number | boolean | null>, at: Date) =>
    recordAuditEvent(trx, { kind, actorId: actor.adminId, subjectId: subject.id, detail, ip: actor.ip }, at)

  const detail = async (userId: string): Promise<AdminUserDetail> => {
    const found = await store.findUser(db, userId)
    if (!found) throw noSuchUser()
    // The plan as the account itself would see it now: a trial or a cancelled period that has run out is settled.
    const user = await settleDueSubscription(app, found)
    const at = app.clock()
    const [record, source, sessions, membership] = await Promise.all([
      findRecord(db, user.id),
      quotaSourceOf(db, user),
      store.liveSessions(db, user.id, new Date(at)),
      findMembership(db, user.id)
    ])
    return {
      user: { ...toSummary(user), disabledAt: iso(user.disabled_at), requestLimit: user.request_limit },
      signInMethods: [...(user.password_hash ? (["email"] as const) : []), ...(user.google_uid ? (["google"] as const) : [])],
      subscription: toSubscription(record, app.config.billingMode),
      usage: { month: monthKey(at), used: await usedOf(db, user.id, source, at), limit: source.limit, source: source.kind },
      sessions: sessions.map((session) => ({
        id: session.id,
        client: session.client === "extension" ? ("extension" as const) : ("site" as const),
        createdAt: session.created_at.toISOString(),
        lastUsedAt: session.last_used_at.toISOString(),
        expiresAt: session.expires_at.toISOString()
      })),
      organization: membership ? { id: membership.organization_id, name: membership.name, role: membership.role } : null
    }
  }

  return {
    async list(query: AdminUsersQuery): Promise<AdminUserList> {
      const { rows, total } = await store.listUsers(db, query)
      return { users: rows.map(toSummary), total, page: query.page }
    },

    detail,

    /**
     * Changes the role, the disabled mark, or both, in one transaction with the active admins' rows locked. Disabling
     * ends every session of the account in that transaction; its API keys stop with the next call, which reads the
     * mark. A change to what the account already is writes nothing.
     */
    async update(actor: AdminActor, userId: string, change: AdminUserUpdate): Promise<AdminUserDetail> {
      await inTransaction(db, async (trx) => {
        const activeAdmins = await store.lockActiveAdmins(trx)
        const user = await store.lockUser(trx, userId)
        if (!user) throw noSuchUser()
        const wasDisabled = user.disabled_at !== null
        const role = change.role ?? user.role
        const disabled = change.disabled ?? wasDisabled
        if (isActiveAdmin(user.role, wasDisabled) && !isActiveAdmin(role, disabled) && !activeAdmins.some((id) => id !== user.id)) {
          throw new ApiError(409, "LAST_ADMIN", LAST_ADMIN_MESSAGE)
        }
        if (role === user.role && disabled === wasDisabled) return
        const at = now()
        const updated = await store.updateAccount(trx, user.id, { role, disabledAt: disabled === wasDisabled ? undefined : disabled ? at : null }, at)
        if (role !== user.role) await audit(trx, "admin.role_changed", actor, updated, { from: user.role, to: role }, at)
        if (disabled && !wasDisabled) {
          const sessionsEnded = await store.endAllSessions(trx, user.id, at)
          await audit(trx, "admin.account_disabled", actor, updated, { sessionsEnded }, at)
        } else if (!disabled && wasDisabled) {
          await audit(trx, "admin.account_enabled", actor, updated, {}, at)
        }
      })
      return detail(userId)
    },

    /** A new verification link through the outbox, in the transaction of its audit row; 409 for a verified address. */
    async resendVerification(actor: AdminActor, userId: string): Promise<{ sent: true; email: string }> {
      return inTransaction(db, async (trx) => {
        const user = await store.lockUser(trx, userId)
        if (!user) throw noSuchUser()
        if (user.email_verified_at) throw new ApiError(409, "ALREADY_VERIFIED", "This address is verified already: there is nothing to resend.")
        await queueVerificationEmail(app, trx, user)
        await audit(trx, "admin.verification_resent", actor, user, {}, now())
        return { sent: true as const, email: user.email }
      })
    },

    /** Signs the account out everywhere, the extension included: its next call asks it to sign in again. */
    async endSessions(actor: AdminActor, userId: string): Promise<{ ended: number }> {
      return inTransaction(db, async (trx) => {
        const user = await store.lockUser(trx, userId)
        if (!user) throw noSuchUser()
        const at = now()
        const ended = await store.endAllSessions(trx, user.id, at)
        await audit(trx, "admin.sessions_ended", actor, user, { sessionsEnded: ended }, at)
        return { ended }
      })
    },

    /**
     * The monthly request limit of an account (null: unlimited), audited with what it was. It is what an Enterprise
     * account gets; other plans keep their plan's quota. Undefined for an unknown account.
     */
    async setRequestLimit(actor: AdminActor, userId: string, limit: number | null): Promise<{ user: UserRow; plan: PlanId } | undefined> {
      return inTransaction(db, async (trx) => {
        const user = await store.lockUser(trx, userId)
        if (!user) return undefined
        const at = now()
        const updated = await store.updateRequestLimit(trx, user.id, limit, at)
        await audit(trx, "admin.request_limit_set", actor, updated, { from: user.request_limit, to: limit, plan: planOf(updated) }, at)
        return { user: updated, plan: planOf(updated) }
      })
    }
  }
}
