/**
 * SCIM provisioning of an organisation's members, as its identity provider asks through /scim/v2 with the
 * organisation's token. Every user of the organisation is a SCIM user (the owner and invited members too, so that a
 * provider finds them by userName instead of failing to create them); a token sees nothing of another organisation.
 *
 * - POST creates the account, without a password (a provisioned person signs in through the organisation's SSO), its
 *   address verified, and makes it a member. An existing account in no organisation joins, as SSO's just-in-time
 *   sign-in joins it; one in an organisation, or paying for a plan of its own, is refused 409 uniqueness.
 * - active: false suspends the member: their sessions end at once, and every later call of theirs (a session opened
 *   meanwhile, an API key) is refused 403 ACCOUNT_SUSPENDED, read from the database on each call, so on every instance;
 *   the pool gives them nothing. active: true lifts it (they sign in again). DELETE removes them from the organisation
 *   and ends their sessions; the account stays, on its own.
 * - The owner cannot be suspended or removed (a provider's mistake must not lock the company out), nor a member whose
 *   subscription funds the pool while it does.
 * Every change is audited, in its transaction, with the organisation's id and the token's.
 */
import type { FastifyInstance } from "fastify"

import { MAX_ORGANIZATION_MEMBERS } from "~core/organizations"
import { SCIM_LIST_SCHEMA, SCIM_USER_SCHEMA, type ScimPatchOperation, type ScimUserInput, scimUserSchema } from "~core/scim"

import type { AuditEventKind } from "~core/admin/audit"
import { recordAuditEvent } from "../../audit/audit-log-store"
import { revokeUserSessions } from "../../auth/session-store"
import { findUserById, insertProvisionedUser, normaliseEmail } from "../../auth/user-store"
import { fundsPool, planOf } from "../../billing/plan"
import { inTransaction, type Db } from "../../db/transaction"
import { isUuid } from "../../db/uuid"
import { queueWebhookEvent } from "../../webhooks/webhook-events"
import * as organizations from "../organization-store"
import { applyPatch, type ScimResourceBody } from "./scim-patch"
import { invalidBody, noSuchUser, parseFilter, SCIM_PREFIX, ScimError } from "./scim-protocol"
import * as store from "./scim-store"

/** Who calls: the organisation a token belongs to, and the token (named in the audit log). */
export interface ScimCaller {
  organizationId: string
  tokenId: string
  ip: string
}

const iso = (value: Date | string) => new Date(value).toISOString()
const latest = (...dates: (Date | string | null)[]) => new Date(Math.max(...dates.filter((date) => date !== null).map((date) => new Date(date).getTime())))
const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505"

/** The name an account keeps: formatted, else displayName, else the given and family names, else what it had. */
const nameFrom = (input: ScimUserInput, fallback: string) =>
  input.name?.formatted || input.displayName || [input.name?.givenName, input.name?.familyName].filter(Boolean).join(" ") || fallback

/**
 * The account has one name: a PATCH that changed formatted names it; else one that changed displayName; else one that
 * changed the given or family name names it from them (Entra patches name.givenName alone). The resource answered
 * before carries the current name in all three, so without this an unchanged formatted would win over the change.
 */
function settleName(current: ScimResourceBody, patched: ScimResourceBody): ScimResourceBody {
  const before = (current.name ?? {}) as Record<string, unknown>
  const after = (typeof patched.name === "object" && patched.name !== null ? patched.name : {}) as Record<string, unknown>
  let formatted = before.formatted
  if (after.formatted !== before.formatted) formatted = after.formatted
  else if (patched.displayName !== current.displayName) formatted = patched.displayName
  else if (after.givenName !== before.givenName || after.familyName !== before.familyName) formatted = [after.givenName, after.familyName].filter((part) => typeof part === "string" && part).join(" ") || before.formatted
  return { ...patched, name: { ...after, formatted }, displayName: formatted }
}

export function scimService(app: FastifyInstance) {
  const db = app.database.db
  const now = () => new Date(app.clock())

  const toResource = (row: store.ScimMemberRow) => ({
    schemas: [SCIM_USER_SCHEMA],
    id: row.user_id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    userName: row.email,
    name: { formatted: row.name, ...(row.given_name ? { givenName: row.given_name } : {}), ...(row.family_name ? { familyName: row.family_name } : {}) },
    displayName: row.name,
    emails: [{ value: row.email, type: "work", primary: true }],
    active: row.suspended_at === null,
    meta: {
      resourceType: "User",
      created: iso(row.joined_at),
      lastModified: iso(latest(row.joined_at, row.user_updated_at, row.scim_updated_at)),
      location: `${app.config.publicUrl}${SCIM_PREFIX}/Users/${row.user_id}`
    }
  })

  const memberOf = async (trx: Db, caller: ScimCaller, userId: string) => {
    const row = isUuid(userId) ? await store.findMember(trx, caller.organizationId, userId) : undefined
    if (!row) throw noSuchUser()
    return row
  }

  const audit = (trx: Db, kind: AuditEventKind, caller: ScimCaller, userId: string, detail: Record<string, string | boolean | null> = {}) =>
    recordAuditEvent(trx, { kind, actorId: null, subjectId: userId, detail: { organizationId: caller.organizationId, scimTokenId: caller.tokenId, ...detail }, ip: caller.ip }, now())

  /** 403 when the member may not be suspended or removed: the owner, or the subscriber while their plan funds the pool. */
  const refuseToRemove = async (trx: Db, caller: ScimCaller, row: store.ScimMemberRow, what: string) => {
    if (row.role === "owner") throw new ScimError(403, `The organisation's owner cannot be ${what} through SCIM: transfer the ownership first.`)
    const subscriber = await organizations.subscriberOf(trx, caller.organizationId)
    if (subscriber.id === row.user_id && fundsPool(subscriber)) throw new ScimError(403, `${row.email} pays for the organisation's Enterprise plan and cannot be ${what} while it funds the pool.`)
  }

  /**
   * When the member is suspended from now on: a change of active is audited, and a suspension ends every session of
   * theirs in the same transaction. An omitted active leaves it as it is: a PUT without it must not lift a suspension.
   */
  const suspensionAfter = async (trx: Db, caller: ScimCaller, row: store.ScimMemberRow, active: boolean | null | undefined): Promise<Date | null> => {
    if (active === undefined || active === null || active === (row.suspended_at === null)) return row.suspended_at
    if (!active) {
      await refuseToRemove(trx, caller, row, "deactivated")
      await revokeUserSessions(trx, row.user_id, app.clock())
    }
    await audit(trx, active ? "scim.user_reactivated" : "scim.user_deactivated", caller, row.user_id)
    return active ? null : now()
  }

  /** The body of PUT (or of a PATCH once applied) made the user's: address, name, externalId, active. */
  const replaceWith = async (caller: ScimCaller, userId: string, input: ScimUserInput) =>
    inTransaction(db, async (trx) => {
      await organizations.lockOrganization(trx, caller.organizationId)
      const row = await memberOf(trx, caller, userId)
      const email = normaliseEmail(input.userName)
      const name = nameFrom(input, row.name)
      const changed: string[] = []
      if (email !== row.email.toLowerCase()) {
        if (!row.provisioned) throw new ScimError(400, "The address of an account SCIM did not create cannot be changed through SCIM: its owner changes it.", "mutability")
        if (await organizations.userByEmail(trx, email)) throw new ScimError(409, `Another account has the address ${email}.`, "uniqueness")
        changed.push("userName")
      }
      if (name !== row.name) changed.push("name")
      const externalId = input.externalId ?? null
      const givenName = input.name?.givenName ?? null
      const familyName = input.name?.familyName ?? null
      if (externalId !== row.external_id) changed.push("externalId")
      if (name === row.name && (givenName !== row.given_name || familyName !== row.family_name)) changed.push("name")
      const suspendedAt = await suspensionAfter(trx, caller, row, input.active)
      if (changed.length === 0 && suspendedAt === row.suspended_at) return toResource(row)
      try {
        if (changed.includes("userName") || name !== row.name) await store.updateUser(trx, userId, { email, name }, now())
      } catch (error) {
        if (isUniqueViolation(error)) throw new ScimError(409, `Another account has the address ${email}.`, "uniqueness")
        throw error
      }
      await store.saveMember(trx, { organizationId: caller.organizationId, userId, externalId, givenName, familyName, suspendedAt, now: now() })
      if (changed.length > 0) await audit(trx, "scim.user_updated", caller, userId, { changed: changed.join(", ") })
      return toResource(await memberOf(trx, caller, userId))
    })

  return {
    toResource,

    async list(caller: ScimCaller, query: { filter?: string; startIndex: number; count: number }) {
      const filter = parseFilter(query.filter)
      // An id that is no uuid names nobody: answered as an empty list, not as a database error.
      if (filter?.attribute === "id" && !isUuid(filter.value)) return { schemas: [SCIM_LIST_SCHEMA], totalResults: 0, startIndex: query.startIndex, itemsPerPage: 0, Resources: [] }
      const totalResults = await store.countMembers(db, caller.organizationId, filter)
      const rows = query.count === 0 ? [] : await store.listMembers(db, caller.organizationId, filter, { offset: query.startIndex - 1, limit: query.count })
      return { schemas: [SCIM_LIST_SCHEMA], totalResults, startIndex: query.startIndex, itemsPerPage: rows.length, Resources: rows.map(toResource) }
    },

    async get(caller: ScimCaller, userId: string) {
      return toResource(await memberOf(db, caller, userId))
    },

    async create(caller: ScimCaller, input: ScimUserInput) {
      const email = normaliseEmail(input.userName)
      const at = now()
      try {
        return await inTransaction(db, async (trx) => {
          await organizations.lockOrganization(trx, caller.organizationId)
          const existing = await organizations.userByEmail(trx, email)
          let userId = existing?.id
          if (existing) {
            const membership = await organizations.findMembership(trx, existing.id)
            if (membership?.organization_id === caller.organizationId) throw new ScimError(409, `${email} is already a user of your organisation.`, "uniqueness")
            if (membership) throw new ScimError(409, `${email} belongs to another organisation.`, "uniqueness")
            const account = await findUserById(trx, existing.id)
            if ((account && planOf(account) !== "free") || (await organizations.organizationSubscribedBy(trx, existing.id))) {
              throw new ScimError(409, `${email} has a plan of its own: its owner cancels it before joining your organisation.`, "uniqueness")
            }
          }
          if ((await organizations.countSeats(trx, caller.organizationId, at)) >= MAX_ORGANIZATION_MEMBERS) {
            throw new ScimError(409, `An organisation has at most ${MAX_ORGANIZATION_MEMBERS} members, invitations pending included.`, "tooMany")
          }
          userId ??= (await insertProvisionedUser(trx, { email, name: nameFrom(input, email.split("@")[0]!) }, at))?.id
          if (!userId) throw new ScimError(409, `${email} was just created by another request.`, "uniqueness")
          await organizations.insertMember(trx, { organizationId: caller.organizationId, userId, role: "member", now: at })
          const suspended = input.active === false
          await store.saveMember(trx, {
            organizationId: caller.organizationId,
            userId,
            externalId: input.externalId ?? null,
            givenName: input.name?.givenName ?? null,
            familyName: input.name?.familyName ?? null,
            suspendedAt: suspended ? at : null,
            provisioned: !existing,
            now: at
          })
          await audit(trx, "scim.user_created", caller, userId, { email, existingAccount: Boolean(existing), active: !suspended })
          await queueWebhookEvent(app, trx, [{ kind: "organization", id: caller.organizationId }], "member.joined", { organizationId: caller.organizationId, userId, email, role: "member", via: "scim" })
          return toResource(await memberOf(trx, caller, userId))
        })
      } catch (error) {
        // The same address created, or joined elsewhere, by a request at the same moment.
        if (isUniqueViolation(error)) throw new ScimError(409, `${email} was just created or joined by another request.`, "uniqueness")
        throw error
      }
    },

    replace: replaceWith,

    async patch(caller: ScimCaller, userId: string, operations: ScimPatchOperation[]) {
      const current = toResource(await memberOf(db, caller, userId)) as unknown as ScimResourceBody
      const patched = settleName(current, applyPatch(current, operations))
      const parsed = scimUserSchema.safeParse(patched)
      if (!parsed.success) throw invalidBody(parsed.error)
      return replaceWith(caller, userId, parsed.data)
    },

    async remove(caller: ScimCaller, userId: string): Promise<void> {
      await inTransaction(db, async (trx) => {
        await organizations.lockOrganization(trx, caller.organizationId)
        const row = await memberOf(trx, caller, userId)
        await refuseToRemove(trx, caller, row, "removed")
        await organizations.removeMember(trx, caller.organizationId, userId)
        await revokeUserSessions(trx, userId, app.clock())
        await audit(trx, "scim.user_deleted", caller, userId, { email: row.email })
        await queueWebhookEvent(app, trx, [{ kind: "organization", id: caller.organizationId }], "member.removed", { organizationId: caller.organizationId, userId, role: row.role, reason: "deprovisioned" })
      })
    }
  }
}
