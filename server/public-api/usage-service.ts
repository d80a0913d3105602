/**
 * What a key's calls leave behind: each answered call counted by endpoint and key, the key's last use noted, and the
 * month's usage as GET /api/v1/usage answers it (the queries in ./usage-store.ts and the quota's in server/quota).
 */
import type { FastifyInstance } from "fastify"

import { PUBLIC_API_ENDPOINTS, type ApiUsage, type PublicApiEndpoint } from "~core/api-keys"
import { monthKey } from "~core/time"

import type { ApiKeyCaller } from "../api-keys/key-auth"
import { KEY_USE_RESOLUTION_MS, touchKey } from "../api-keys/key-store"
import type { UserRow } from "../auth/user-store"
import { quotaSourceOf, usedOf } from "../quota/quota-service"
import { callsOfMonth, countCall } from "./usage-store"

/** An answered call: counted for its endpoint (when it is one that counts), and its key's use noted. */
export async function recordAnsweredCall(app: FastifyInstance, caller: ApiKeyCaller, endpoint: PublicApiEndpoint | undefined): Promise<void> {
  const db = app.database.db
  const now = app.clock()
  if (endpoint) await countCall(db, { keyId: caller.key.id, userId: caller.user.id, at: now, endpoint })
  // The key's row was read for this call: a use noted within the minute needs no write.
  const lastUsed = caller.key.last_used_at
  if (!lastUsed || now - lastUsed.getTime() >= KEY_USE_RESOLUTION_MS) await touchKey(db, caller.key.id, new Date(now))
}

/** This month's answered calls by endpoint and key, and the quota ask and translate draw from (a member's: the pool). */
export async function monthUsage(app: FastifyInstance, user: UserRow): Promise<ApiUsage> {
  const db = app.database.db
  const now = app.clock()
  const month = monthKey(now)
  const rows = await callsOfMonth(db, user.id, month)
  const byEndpoint = Object.fromEntries(PUBLIC_API_ENDPOINTS.map((endpoint) => [endpoint, 0])) as Record<PublicApiEndpoint, number>
  const byKey = new Map<string, ApiUsage["byKey"][number]>()
  for (const row of rows) {
    byEndpoint[row.endpoint as PublicApiEndpoint] += row.calls
    const entry = byKey.get(row.key_id) ?? { id: row.key_id, prefix: row.prefix, name: row.name, calls: 0 }
    entry.calls += row.calls
    byKey.set(row.key_id, entry)
  }
  const source = await quotaSourceOf(db, user)
  const quota = { used: await usedOf(db, user.id, source, now), limit: source.limit }
  return { month, quota, byEndpoint, byKey: [...byKey.values()] }
}
