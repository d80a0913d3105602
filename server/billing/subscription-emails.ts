/**
 * The e-mails a subscription change calls for, queued in the transaction of the change (the outbox sends them once it
 * commits): started (a paid plan or a trial where there was none), cancelled (now or at the period's end), payment
 * failed, and on hold (unpaid or paused: the plan is withheld until the invoice is paid).
 */
import type { FastifyInstance } from "fastify"
import type { Transaction } from "kysely"

import { isOnHold } from "~core/billing/billing"
import { longDate } from "~core/format"
import { getPlan } from "~core/billing/plans"

import type { UserRow } from "../auth/user-store"
import type { DatabaseSchema } from "../db/schema"
import { EMAIL_TEMPLATES, type EmailContent } from "../mail/email-templates"
import { queueEmail } from "../mail/outbox"
import { effectivePlan, hasPaidPlan, isLocalTrial, type SubscriptionRecord } from "./subscription-rules"

export interface RecordChange {
  /** The record before the change, its time-bound changes made. */
  before: SubscriptionRecord | undefined
  after: SubscriptionRecord | undefined
  user: UserRow
}

const longDateOf = (date: Date | null) => (date ? longDate(date) : null)

/** The e-mails of one change, with what each is for the logs. */
export function subscriptionEmails(publicUrl: string, { before, after, user }: RecordChange): { what: string; content: EmailContent }[] {
  if (!after || after === before) return []
  const dashboardUrl = `${publicUrl}/dashboard`
  const planBefore = before ? effectivePlan(before) : "free"
  const emails: { what: string; content: EmailContent }[] = []
  const started = hasPaidPlan(after) && (planBefore === "free" || (before?.status === "trialing" && after.status !== "trialing"))
  if (started) {
    const planName = getPlan(effectivePlan(after)).name
    const trialEnds = after.status === "trialing" ? longDateOf(after.trial_end) : null
    const cardGiven = after.status === "trialing" && !isLocalTrial(after)
    emails.push({ what: "subscription started", content: EMAIL_TEMPLATES.subscriptionStarted({ name: user.name, planName, trialEnds, dashboardUrl, cardGiven }) })
  }
  const canceledNow = planBefore !== "free" && before?.status !== "trialing" && after.status === "canceled"
  const cancelScheduled = after.cancel_at_period_end && !before?.cancel_at_period_end
  if (cancelScheduled || canceledNow) {
    const planName = getPlan(cancelScheduled ? after.plan_id : planBefore).name
    const endsOn = cancelScheduled ? longDateOf(after.current_period_end) : null
    emails.push({ what: "subscription cancelled", content: EMAIL_TEMPLATES.subscriptionCanceled({ name: user.name, planName, endsOn, dashboardUrl }) })
  }
  const planName = getPlan(after.plan_id).name
  if (after.status === "past_due" && before?.status !== "past_due") {
    emails.push({ what: "payment failed", content: EMAIL_TEMPLATES.paymentFailed({ name: user.name, planName, billingUrl: dashboardUrl }) })
  }
  if (isOnHold(after.status) && !(before && isOnHold(before.status))) {
    emails.push({ what: "subscription on hold", content: EMAIL_TEMPLATES.subscriptionOnHold({ name: user.name, planName, billingUrl: dashboardUrl }) })
  }
  return emails
}

/** Queues the e-mails of a change in its transaction. */
export async function queueSubscriptionEmails(app: FastifyInstance, trx: Transaction<DatabaseSchema>, change: RecordChange): Promise<void> {
  for (const { what, content } of subscriptionEmails(app.config.publicUrl, change)) await queueEmail(app, trx, { to: change.user.email, what, content })
}
