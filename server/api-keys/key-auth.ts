/**
 * The public API's caller: an API key, and nothing else. A session or extension token on /api/v1 is refused, as is a
 * key anywhere else (authenticate.ts takes only session tokens). A revoked key stops on its next call on every
 * instance (keys are read from the database, never cached); an account back on Free keeps its keys, which answer
 * PLAN_REQUIRED until it upgrades. Each key has two limits shared by every instance (server/limits): calls in a
 * sliding minute, and calls being answered at once (a lease given back when the answer is sent, or when it runs out
 * after a crash).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { API_KEY_MAX_IN_FLIGHT, API_KEY_PREFIX, API_KEY_RATE_LIMIT } from "~core/api-keys"

import { accountDisabled, bearerToken } from "../auth/authenticate"
import type { UserRow } from "../auth/users"
import { settleDueSubscription } from "../billing/subscription-changes"
import { ApiError } from "../http/errors"
import { retryAfterSeconds, takeAll } from "../limits/limit-store"
import { hashApiKey, hasApiAccess, planRequired } from "./key-service"
import { findActiveKeyWithOwner, type ApiKeyRow } from "./key-store"

/** How long a call holds its in-flight place at most: longer than any call may take, so a crash frees it. */
const IN_FLIGHT_LEASE_MS = 5 * 60_000

export interface ApiKeyCaller {
  key: ApiKeyRow
  user: UserRow
  /** The in-flight place this call holds, given back when its answer is sent. */
  inFlightKey: string
}

declare module "fastify" {
  interface FastifyRequest {
    apiKey: ApiKeyCaller | null
  }
}

const invalidKey = (message: string) => new ApiError(401, "INVALID_API_KEY", message)

/** onRequest hook of every /api/v1 route: before the body is read, as for the analyze routes. */
export async function requireApiKey(this: FastifyInstance, request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const token = bearerToken(request)
  if (!token?.startsWith(API_KEY_PREFIX)) {
    throw invalidKey("The API takes an API key: send it as 'Authorization: Bearer iqa_…'. Create one on your dashboard.")
  }
  const found = await findActiveKeyWithOwner(this.database.db, hashApiKey(token))
  if (!found) throw invalidKey("This API key is not valid: it may have been revoked. Create a new one on your dashboard.")
  const { key } = found
  // Read with the key on every call: a key of an account an admin disabled stops at once, on every instance.
  if (found.owner.disabled_at) throw accountDisabled()
  const user = await settleDueSubscription(this, found.owner)
  if (!hasApiAccess(user)) throw planRequired()

  const now = this.clock()
  const inFlightKey = `api-key-in-flight:${key.id}`
  const refused = await takeAll(
    this.limits,
    [
      { key: inFlightKey, max: API_KEY_MAX_IN_FLIGHT, windowMs: IN_FLIGHT_LEASE_MS },
      { key: `api-key-rate:${key.id}`, max: API_KEY_RATE_LIMIT.requests, windowMs: API_KEY_RATE_LIMIT.windowMs }
    ],
    now
  )
  if (refused) {
    const inFlight = refused.refusedBy === 0
    const retryAfter = inFlight ? 1 : retryAfterSeconds(refused.answer)
    throw new ApiError(
      429,
      "RATE_LIMIT_EXCEEDED",
      inFlight
        ? `This API key already has ${API_KEY_MAX_IN_FLIGHT} calls being answered. Wait for one to finish.`
        : `This API key made ${API_KEY_RATE_LIMIT.requests} calls in the last minute. Try again in ${retryAfter} seconds.`,
      { retryAfter }
    )
  }
  request.apiKey = { key, user, inFlightKey }
}

/** Registers the caller's slot on requests and gives the in-flight place back once the answer is sent. */
export function registerApiKeyCallers(app: FastifyInstance): void {
  app.decorateRequest("apiKey", null)
  app.addHook("onResponse", async (request) => {
    if (request.apiKey) await app.limits.release(request.apiKey.inFlightKey)
  })
}
