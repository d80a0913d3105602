/**
 * How many invitation e-mails an organisation may send: each goes to an address someone typed, with our name on it,
 * so one address gets at most one a minute and INVITATIONS_PER_ADDRESS_PER_DAY a day from an organisation, and an
 * organisation sends at most INVITATIONS_PER_ORGANIZATION_PER_HOUR in all. Counted in the shared limits (database or
 * Redis), so they hold for parallel calls and across API instances; each check and count is one atomic step there.
 */
import { countOf } from "~core/format"
import { mailboxOf } from "../auth/mailbox"
import {
  INVITATION_RESEND_COOLDOWN_SECONDS,
  INVITATIONS_PER_ADDRESS_PER_DAY,
  INVITATIONS_PER_ORGANIZATION_PER_HOUR
} from "~core/organizations"
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from "~core/time"

import { ApiError } from "../http/errors"
import { retryAfterSeconds, takeAll, type LimitStore } from "../limits/limit-store"

/** A wait in words: seconds up to 90 of them, then minutes, then hours (rounded up). */
function waitInWords(seconds: number): string {
  if (seconds <= 90) return countOf(seconds, "second", "seconds")
  if (seconds * SECOND_MS <= 90 * MINUTE_MS) return countOf(Math.ceil((seconds * SECOND_MS) / MINUTE_MS), "minute", "minutes")
  return countOf(Math.ceil((seconds * SECOND_MS) / HOUR_MS), "hour", "hours")
}

/**
 * Counts one invitation e-mail from the organisation to `email` and answers how to give it back (the invitation was
 * refused after all: nothing was sent), or throws 429 TOO_MANY_REQUESTS with retryAfter in seconds and the limit in
 * words. A refusal counts nothing.
 */
export async function takeInvitationEmail(limits: LimitStore, now: number, organizationId: string, email: string): Promise<() => Promise<void>> {
  // Per mailbox: "ada+1@" and "ada+2@" reach the same person, and count as one address.
  const mailbox = mailboxOf(email)
  const counted = [
    { key: `organization-invitation:cooldown:${organizationId}:${mailbox}`, max: 1, windowMs: INVITATION_RESEND_COOLDOWN_SECONDS * SECOND_MS },
    { key: `organization-invitation:day:${organizationId}:${mailbox}`, max: INVITATIONS_PER_ADDRESS_PER_DAY, windowMs: DAY_MS },
    { key: `organization-invitation:hour:${organizationId}`, max: INVITATIONS_PER_ORGANIZATION_PER_HOUR, windowMs: HOUR_MS }
  ]
  const refused = await takeAll(limits, counted, now)
  if (refused) {
    const seconds = retryAfterSeconds(refused.answer)
    const wait = waitInWords(seconds)
    const messages = [
      `An invitation was sent to ${email} less than a minute ago. You can send it again in ${wait}.`,
      `${email} has had ${INVITATIONS_PER_ADDRESS_PER_DAY} invitations from your organisation in the last 24 hours, the most we send. You can invite this address again in ${wait}.`,
      `Your organisation has sent ${INVITATIONS_PER_ORGANIZATION_PER_HOUR} invitations in the last hour, the most we send. You can send more in ${wait}.`
    ]
    throw new ApiError(429, "TOO_MANY_REQUESTS", messages[refused.refusedBy]!, { retryAfter: seconds })
  }
  return async () => {
    for (const limit of counted) await limits.release(limit.key)
  }
}
