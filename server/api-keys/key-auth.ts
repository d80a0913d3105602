/**
 * The public API's caller: an API key, and nothing else. A session or extension token on /api/v1 is refused, as is a
 * key anywhere else (authenticate.ts takes only session tokens). A revoked key stops on its next call on every
 * instance (keys are read from the database, never cached); an account back on Free keeps its keys, which answer
 * PLAN_REQUIRED until it upgrades. Each key has two limits shared by every instance (server/limits): calls in a
 * sliding minute, and calls being answered at once; the account has the same two over all its keys. An in-flight
 * place is a lease, given back once: when the answer is sent, or, when the client left before it, as soon as the
 * call's work has ended (a call still waiting for a thread drops out of the line at once); a crash leaves it to run
 * out. A call whose client left is not counted as answered.
 *
 * Each instance also keeps its own count of the places its calls hold: never more than the shared count, so when it
 * alone reaches a limit the call is refused without asking the shared store (a flood of refused calls costs one key
 * look-up each, not the four takes and their give-backs). The shared store stays the rule; this only saves work.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { API_ACCOUNT_MAX_IN_FLIGHT, API_ACCOUNT_RATE_LIMIT, API_KEY_MAX_IN_FLIGHT, API_KEY_PREFIX, API_KEY_RATE_LIMIT } from "~core/api-keys"

import { accountDisabled, bearerToken, refuseSuspended } from "../auth/authenticate"
import type { UserRow } from "../auth/user-store"
import { settleDueSubscription } from "../billing/subscription-changes"
import { ApiError } from "../http/errors"
import { retryAfterSeconds, takeAll, type LimitStore } from "../limits/limit-store"
import { hashApiKey, hasApiAccess, planRequired } from "./key-service"
import { findActiveKeyWithOwner, type ApiKeyRow } from "./key-store"

/** How long a call holds its in-flight place at most: longer than any call may take, so a crash frees it. */
const IN_FLIGHT_LEASE_MS = 5 * 60_000

/** This instance's in-flight places by shared key, per app's limit store (tests run several apps in one process). */
const placesHeldHere = new WeakMap<LimitStore, Map<string, number>>()

export interface ApiKeyCaller {
  key: ApiKeyRow
  user: UserRow
  /** Aborted when the client closes the connection before the answer is sent: the call's work may stop. */
  clientLeft: AbortSignal
  /** Gives the call's in-flight places (the key's and the account's) back; only the first call does. */
  releasePlaces(): Promise<void>
  /** Set once the call's answer exists (its work has ended), sent or not. */
  answered: boolean
}

declare module "fastify" {
  interface FastifyRequest {
    apiKey: ApiKeyCaller | null
  }
}

const invalidKey = (message: string) => new ApiError(401, "INVALID_API_KEY", message)

/** onRequest hook of every /api/v1 route: before the body is read, as for the /api/analyze routes. */
export async function requireApiKey(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = bearerToken(request)
  if (!token?.startsWith(API_KEY_PREFIX)) {
    throw invalidKey("The API takes an API key: send it as 'Authorization: Bearer iqa_…'. Create one on your dashboard.")
  }
  const found = await findActiveKeyWithOwner(this.database.db, hashApiKey(token))
  if (!found) throw invalidKey("This API key is not valid: it may have been revoked. Create a new one on your dashboard.")
  const { key } = found
  // Read with the key on every call: a key of an account an admin disabled stops at once, on every instance.
  if (found.owner.disabled_at) throw accountDisabled()
  // And of a member their organisation suspended (SCIM): the key works again once the suspension is lifted.
  await refuseSuspended(this, found.owner.id)
  const user = await settleDueSubscription(this, found.owner)
  if (!hasApiAccess(user)) throw planRequired()

  const places = [`api-key-in-flight:${key.id}`, `api-account-in-flight:${user.id}`] as const
  const heldHere = placesHeldHere.get(this.limits) ?? placesHeldHere.set(this.limits, new Map()).get(this.limits)!
  if ((heldHere.get(places[0]) ?? 0) >= API_KEY_MAX_IN_FLIGHT) throw limitReached(0, 1)
  if ((heldHere.get(places[1]) ?? 0) >= API_ACCOUNT_MAX_IN_FLIGHT) throw limitReached(2, 1)
  const refused = await takeAll(
    this.limits,
    [
      { key: places[0], max: API_KEY_MAX_IN_FLIGHT, windowMs: IN_FLIGHT_LEASE_MS },
      { key: `api-key-rate:${key.id}`, max: API_KEY_RATE_LIMIT.requests, windowMs: API_KEY_RATE_LIMIT.windowMs },
      { key: places[1], max: API_ACCOUNT_MAX_IN_FLIGHT, windowMs: IN_FLIGHT_LEASE_MS },
      { key: `api-account-rate:${user.id}`, max: API_ACCOUNT_RATE_LIMIT.requests, windowMs: API_ACCOUNT_RATE_LIMIT.windowMs }
    ],
    this.clock()
  )
  if (refused) throw limitReached(refused.refusedBy, retryAfterSeconds(refused.answer))
  for (const place of places) heldHere.set(place, (heldHere.get(place) ?? 0) + 1)

  const limits = this.limits
  let released = false
  const leaving = new AbortController()
  const caller: ApiKeyCaller = {
    key,
    user,
    clientLeft: leaving.signal,
    answered: false,
    async releasePlaces() {
      if (released) return
      released = true
      for (const place of places) {
        const held = (heldHere.get(place) ?? 1) - 1
        if (held > 0) heldHere.set(place, held)
        else heldHere.delete(place)
        await limits.release(place)
      }
    }
  }
  // The client went before its answer was sent: it closed the connection, or ended its side of it (as nginx, we take
  // a half-close while an answer is awaited for a leaving client; Node keeps such a socket open until it writes). An
  // answer ready by then frees the places now; otherwise the call's work ends first (onSend, below), and them with it.
  const socket = request.raw.socket
  const left = () => {
    if (reply.raw.writableFinished || leaving.signal.aborted) return
    leaving.abort()
    if (caller.answered) void caller.releasePlaces().catch((error: unknown) => request.log.error({ err: error }, "An API call's places were not given back"))
  }
  socket.once("end", left)
  reply.raw.once("close", () => {
    socket.off("end", left)
    left()
  })
  request.apiKey = caller
}

/** 429 in the words of the limit that refused (takeAll's order above). */
function limitReached(refusedBy: number, retryAfter: number): ApiError {
  const messages = [
    `This API key already has ${API_KEY_MAX_IN_FLIGHT} calls being answered. Wait for one to finish.`,
    `This API key made ${API_KEY_RATE_LIMIT.requests} calls in the last minute. Try again in ${retryAfter} seconds.`,
    `Your account already has ${API_ACCOUNT_MAX_IN_FLIGHT} calls being answered, over all its keys. Wait for one to finish.`,
    `Your account made ${API_ACCOUNT_RATE_LIMIT.requests} calls in the last minute, over all its keys. Try again in ${retryAfter} seconds.`
  ]
  const inFlight = refusedBy === 0 || refusedBy === 2
  return new ApiError(429, "RATE_LIMIT_EXCEEDED", messages[refusedBy]!, { retryAfter: inFlight ? 1 : retryAfter })
}

/**
 * Registers the caller's slot on requests, and gives the in-flight places back: once the answer is sent, or, for a
 * client that left, once the answer exists (the work has ended).
 */
export function registerApiKeyCallers(app: FastifyInstance): void {
  app.decorateRequest("apiKey", null)
  app.addHook("onSend", async (request, _reply, payload) => {
    const caller = request.apiKey
    if (caller) {
      caller.answered = true
      if (caller.clientLeft.aborted) await caller.releasePlaces()
    }
    return payload
  })
  app.addHook("onResponse", async (request) => {
    await request.apiKey?.releasePlaces()
  })
}
