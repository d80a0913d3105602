/**
 * Personal API keys: made, listed and revoked by their owner from a website session (never with an API key or the
 * extension's token), on Pro and Enterprise (a trial counts). A key is `iqa_` and 32 random bytes in base62, shown
 * once; only its SHA-256 is kept (a key is random enough that an unsalted hash gives nothing away). Each creation and
 * revocation is e-mailed to the owner and written to the audit log, in the change's own transaction, with the api_key.created or api_key.revoked webhook. The owner's
 * calls per day (the dashboard's chart) are read here too.
 */
import { createHash, randomBytes } from "node:crypto"

import type { FastifyInstance } from "fastify"

import {
  API_KEY_PREFIX,
  API_KEY_RANDOM_BYTES,
  API_KEY_SHOWN_LENGTH,
  MAX_ACTIVE_API_KEYS,
  PUBLIC_API_ENDPOINTS,
  type ApiKeySummary,
  type ApiKeyUsage,
  type ApiKeyUsageQuery,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  type EndpointCalls,
  type PublicApiEndpoint
} from "~core/api-keys"
import { lastUtcDays } from "~core/time"

import { recordAuditEvent } from "../audit/audit-log-store"
import type { Authenticated } from "../auth/authenticate"
import { requireProofOfPerson } from "../auth/sign-in-methods"
import type { UserRow } from "../auth/user-store"
import { planOf } from "../billing/plan"
import { isUuid } from "../db/uuid"
import type { Db } from "../db/transaction"
import { ApiError, notFound } from "../http/errors"
import { EMAIL_TEMPLATES } from "../mail/email-templates"
import { queueEmail } from "../mail/outbox"
import { callsPerDay } from "../public-api/usage-store"
import { ownersOfPerson, queueWebhookEvent } from "../webhooks/webhook-events"
import { activeKeysOf, countActiveKeys, insertKey, lockAccountForKeys, revokeKey, type ApiKeyRow } from "./key-store"

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** `bytes` written in base62, most significant digit first, padded so that every key has the same length. */
function base62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString("hex")}`)
  const digits: string[] = []
  while (value > 0n) {
    digits.push(BASE62[Number(value % 62n)]!)
    value /= 62n
  }
  // 62^43 > 2^256: 43 digits hold any 32 bytes.
  return digits.reverse().join("").padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), "0")
}

export const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex")

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + base62(randomBytes(API_KEY_RANDOM_BYTES))
  return { key, prefix: key.slice(0, API_KEY_SHOWN_LENGTH), hash: hashApiKey(key) }
}

/** Pro and Enterprise sell API access; a trial of either counts. */
export function hasApiAccess(user: Pick<UserRow, "plan_id" | "subscription_status">): boolean {
  return planOf(user) !== "free"
}

export function planRequired(): ApiError {
  return new ApiError(403, "PLAN_REQUIRED", "API keys come with the Pro and Enterprise plans. Upgrade to create one.")
}

/** Keys are managed on the website only: not from the extension, whose token must not be able to mint a key. */
function refuseExtension(auth: Authenticated): void {
  if (auth.client !== "site") throw new ApiError(403, "FORBIDDEN", "API keys can only be managed on the website.")
}

export const toSummary = (row: ApiKeyRow): ApiKeySummary => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null
})

/** Tells the owner of a key's creation or revocation by e-mail and writes it to the audit log, in the change's transaction. */
async function recordKeyChange(app: FastifyInstance, db: Db, change: { user: UserRow; key: ApiKeyRow; kind: "created" | "revoked"; ip: string; now: Date }) {
  const { user, key, kind } = change
  const template = kind === "created" ? EMAIL_TEMPLATES.apiKeyCreated : EMAIL_TEMPLATES.apiKeyRevoked
  const content = template({ name: user.name, keyName: key.name, prefix: key.prefix, keysUrl: `${app.config.publicUrl}/dashboard` })
  await queueEmail(app, db, { to: user.email, what: `API key ${kind}`, content })
  const detail = { keyId: key.id, name: key.name, prefix: key.prefix }
  await recordAuditEvent(db, { kind: `api_key.${kind}`, actorId: user.id, subjectId: user.id, detail, ip: change.ip }, change.now)
  await queueWebhookEvent(app, db, await ownersOfPerson(db, user.id), `api_key.${kind}`, { userId: user.id, ...detail })
}

const noCalls = (): EndpointCalls => ({ ocr: 0, faces: 0, objects: 0, ask: 0, translate: 0 })

export function apiKeyService(app: FastifyInstance) {
  return {
    async create(auth: Authenticated, input: CreateApiKeyRequest, ip: string): Promise<CreatedApiKey> {
      refuseExtension(auth)
      if (!hasApiAccess(auth.user)) throw planRequired()
      await requireProofOfPerson(app, auth, input.currentPassword, { field: "currentPassword", action: "create an API key", ip })
      const generated = generateApiKey()
      const now = new Date(app.clock())
      const row = await app.database.db.transaction().execute(async (trx) => {
        await lockAccountForKeys(trx, auth.user.id)
        if ((await countActiveKeys(trx, auth.user.id)) >= MAX_ACTIVE_API_KEYS) {
          throw new ApiError(409, "KEY_LIMIT_REACHED", `An account can hold ${MAX_ACTIVE_API_KEYS} API keys at once. Revoke one you no longer use to create another.`)
        }
        const created = await insertKey(trx, { userId: auth.user.id, name: input.name, prefix: generated.prefix, keyHash: generated.hash, createdAt: now })
        await recordKeyChange(app, trx, { user: auth.user, key: created, kind: "created", ip, now })
        return created
      })
      const { lastUsedAt: _neverUsed, ...summary } = toSummary(row)
      return { ...summary, key: generated.key }
    },

    async list(auth: Authenticated): Promise<ApiKeySummary[]> {
      refuseExtension(auth)
      return (await activeKeysOf(app.database.db, auth.user.id)).map(toSummary)
    },

    /**
     * The account's calls of the last `days` UTC days, today included, every day present. No plan is asked for: like
     * the list and a revocation, it shows what the account already has, so an account back on Free still sees the
     * calls its keys made; only creating a key gives access, and that is what the plan gates.
     */
    async usage(auth: Authenticated, { days }: ApiKeyUsageQuery): Promise<ApiKeyUsage> {
      refuseExtension(auth)
      const now = app.clock()
      const range = lastUtcDays(now, days)
      const rows = await callsPerDay(app.database.db, auth.user.id, range[0]!, range[range.length - 1]!)
      const byDay = new Map(range.map((day) => [day, noCalls()]))
      const totals = noCalls()
      for (const row of rows) {
        const counts = byDay.get(row.day)
        // An endpoint this server no longer answers is not shown.
        if (!counts || !PUBLIC_API_ENDPOINTS.includes(row.endpoint as PublicApiEndpoint)) continue
        counts[row.endpoint as PublicApiEndpoint] += row.calls
        totals[row.endpoint as PublicApiEndpoint] += row.calls
      }
      return { days: range.map((day) => ({ day, ...byDay.get(day)! })), totals }
    },

    async revoke(auth: Authenticated, id: string, ip: string): Promise<void> {
      refuseExtension(auth)
      const now = new Date(app.clock())
      const revoked = isUuid(id)
        ? await app.database.db.transaction().execute(async (trx) => {
            const row = await revokeKey(trx, auth.user.id, id, now)
            if (!row) return undefined
            await recordKeyChange(app, trx, { user: auth.user, key: row, kind: "revoked", ip, now })
            return row
          })
        : undefined
      if (!revoked) throw notFound("No such API key.")
    }
  }
}
