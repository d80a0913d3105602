/**
 * What an organisation's owner makes this server fetch from elsewhere (a domain's TXT record, an identity provider's
 * discovery document): counted per organisation in the shared limits, on every instance, so that one organisation
 * cannot turn the server into a tool against a DNS server or another host, nor take its time from the others.
 */
import type { FastifyInstance } from "fastify"

import { HOUR_MS } from "~core/time"

import { tooManyAttempts } from "../http/rate-limit"
import { retryAfterSeconds } from "../limits/limit-store"

/** Look-ups of one kind an organisation may cause in an hour. */
export const OUTBOUND_CHECKS_PER_HOUR = 30

export async function takeOutboundCheck(app: FastifyInstance, organizationId: string, kind: "dns" | "sso-provider"): Promise<void> {
  const answer = await app.limits.take(`organization-check:${kind}:${organizationId}`, OUTBOUND_CHECKS_PER_HOUR, HOUR_MS, app.clock())
  if (!answer.taken) throw tooManyAttempts(retryAfterSeconds(answer))
}
