/**
 * The subscription rules as a table: every state a record can be in, every event, and the state that follows (or the
 * refusal). A row reads: from this state, this event gives this outcome.
 */
import { describe, expect, it } from "vitest"

import {
  cancel,
  changePlan,
  followProvider,
  hasPaidPlan,
  NO_RECORD,
  pay,
  paymentFailed,
  resume,
  reviewAt,
  settle,
  startTrial,
  trialUsedElsewhere,
  type ProviderSubscription,
  type SubscriptionRecord,
  type Transition
} from "./subscription-rules"

const DAY = 86_400_000
const NOW = new Date(Date.UTC(2026, 10, 23, 12))
const PERIOD_END = new Date(NOW.getTime() + 10 * DAY)
const BEFORE_DUE = new Date(NOW.getTime() + 9 * DAY)
const AFTER_DUE = new Date(NOW.getTime() + 11 * DAY)
const TEST_MODE = { testRecordsRenew: true }
const STRIPE_MODE = { testRecordsRenew: false }

const paid = (fields: Partial<SubscriptionRecord> = {}): SubscriptionRecord => ({
  ...NO_RECORD,
  provider: "test",
  plan_id: "pro",
  status: "active",
  billing_interval: "month",
  current_period_end: PERIOD_END,
  trial_started_at: null,
  ...fields
})

/** Every state of the machine. */
const STATES: Record<string, SubscriptionRecord | undefined> = {
  none: undefined,
  free: { ...NO_RECORD, provider: "test" },
  trialing: { ...NO_RECORD, provider: "test", plan_id: "pro", status: "trialing", trial_started_at: NOW, trial_end: PERIOD_END },
  /** A trial through Stripe's Checkout, with a card: Stripe ends it, charging the card unless it was cancelled. */
  stripeTrial: paid({ provider: "stripe", status: "trialing", trial_started_at: NOW, trial_end: PERIOD_END, stripe_subscription_id: "sub_t", stripe_customer_id: "cus_t" }),
  active: paid(),
  cancelling: paid({ cancel_at_period_end: true }),
  downgrading: paid({ plan_id: "enterprise", scheduled_plan_id: "pro" }),
  pastDue: paid({ status: "past_due" }),
  unpaid: paid({ status: "unpaid" }),
  ended: paid({ plan_id: "free", status: "canceled", trial_started_at: NOW })
}

/** An outcome in short: the plan it gives, its status and flags, or the refusal; "same" when the record is unchanged. */
function outcome(before: SubscriptionRecord | undefined, after: Transition | SubscriptionRecord): string {
  if ("refused" in after) return `refused ${after.refused}`
  const record = "record" in after ? after.record : after
  if (record === before) return "same"
  const flags = [record.cancel_at_period_end && "cancelling", record.scheduled_plan_id && `then ${record.scheduled_plan_id}`, record.trial_started_at && "trial used"].filter(Boolean)
  const period = record.current_period_end ? ` until ${(record.current_period_end.getTime() - NOW.getTime()) / DAY}d` : ""
  return `${hasPaidPlan(record) ? record.plan_id : "free"} ${record.status}${record.billing_interval ? `/${record.billing_interval}` : ""}${period}${flags.length ? ` (${flags.join(", ")})` : ""}`
}

const EVENTS: Record<string, (record: SubscriptionRecord | undefined) => Transition | SubscriptionRecord | undefined> = {
  "settle before due": (record) => record && settle(record, BEFORE_DUE, TEST_MODE),
  "settle after due": (record) => record && settle(record, AFTER_DUE, TEST_MODE),
  "settle after due, Stripe mode": (record) => record && settle(record, AFTER_DUE, STRIPE_MODE),
  pay: (record) => pay(record, { planId: "pro", interval: "year" }, NOW),
  upgrade: (record) => changePlan(record, { planId: "enterprise", annual: false, interval: "month" }, NOW),
  downgrade: (record) => changePlan(record, { planId: "pro", annual: false, interval: "month" }, NOW),
  cancel: (record) => cancel(record, NOW),
  resume: (record) => resume(record),
  trial: (record) => startTrial(record, "pro", 14, "test", NOW),
  "trial used elsewhere": (record) => trialUsedElsewhere(record, "test", NOW),
  "payment failed": (record) => record && paymentFailed(record)
}

const TABLE: [state: string, event: string, expected: string][] = [
  ["free", "settle before due", "same"],
  ["free", "settle after due", "same"],
  ["trialing", "settle before due", "same"],
  ["trialing", "settle after due", "free canceled (trial used)"],
  ["trialing", "settle after due, Stripe mode", "free canceled (trial used)"],
  ["stripeTrial", "settle after due", "same"],
  ["stripeTrial", "settle after due, Stripe mode", "same"],
  ["active", "settle before due", "same"],
  ["active", "settle after due", "pro active/month until 41d"],
  ["active", "settle after due, Stripe mode", "free canceled/month until 10d"],
  ["cancelling", "settle before due", "same"],
  ["cancelling", "settle after due", "free canceled/month until 10d"],
  ["downgrading", "settle before due", "same"],
  ["downgrading", "settle after due", "pro active/month until 41d"],
  ["downgrading", "settle after due, Stripe mode", "free canceled/month until 10d"],
  ["pastDue", "settle after due", "pro past_due/month until 41d"],
  ["ended", "settle after due", "same"],

  ["none", "pay", "pro active/year until 365d"],
  ["free", "pay", "pro active/year until 365d"],
  ["trialing", "pay", "pro active/year until 365d (trial used)"],
  ["stripeTrial", "pay", "refused ALREADY_SUBSCRIBED"],
  ["active", "pay", "refused ALREADY_SUBSCRIBED"],
  ["cancelling", "pay", "refused ALREADY_SUBSCRIBED"],
  ["pastDue", "pay", "refused ALREADY_SUBSCRIBED"],
  ["unpaid", "pay", "refused ON_HOLD"],
  ["ended", "pay", "pro active/year until 365d (trial used)"],

  ["none", "upgrade", "refused NO_SUBSCRIPTION"],
  ["trialing", "upgrade", "refused NO_SUBSCRIPTION"],
  ["active", "upgrade", "enterprise active/month until 30d"],
  ["cancelling", "upgrade", "enterprise active/month until 30d"],
  ["downgrading", "upgrade", "enterprise active/month until 10d"],
  ["pastDue", "upgrade", "enterprise past_due/month until 30d"],
  ["unpaid", "upgrade", "refused NO_SUBSCRIPTION"],
  ["ended", "upgrade", "refused NO_SUBSCRIPTION"],

  ["active", "downgrade", "refused ALREADY_SUBSCRIBED"],
  ["cancelling", "downgrade", "refused ALREADY_SUBSCRIBED"],
  ["downgrading", "downgrade", "enterprise active/month until 10d (then pro)"],
  ["unpaid", "downgrade", "refused NO_SUBSCRIPTION"],

  ["none", "cancel", "refused NO_SUBSCRIPTION"],
  ["free", "cancel", "refused NO_SUBSCRIPTION"],
  ["trialing", "cancel", "free canceled (trial used)"],
  ["active", "cancel", "pro active/month until 10d (cancelling)"],
  ["cancelling", "cancel", "same"],
  ["downgrading", "cancel", "enterprise active/month until 10d (cancelling, then pro)"],
  ["pastDue", "cancel", "pro past_due/month until 10d (cancelling)"],
  ["unpaid", "cancel", "refused NO_SUBSCRIPTION"],
  ["ended", "cancel", "refused NO_SUBSCRIPTION"],

  ["active", "resume", "refused NOT_CANCELLED"],
  ["cancelling", "resume", "pro active/month until 10d"],
  ["ended", "resume", "refused NOT_CANCELLED"],

  ["none", "trial", "pro trialing (trial used)"],
  ["free", "trial", "pro trialing (trial used)"],
  ["trialing", "trial", "refused TRIAL_ALREADY_USED"],
  ["active", "trial", "refused ALREADY_SUBSCRIBED"],
  ["unpaid", "trial", "refused ON_HOLD"],
  ["ended", "trial", "refused TRIAL_ALREADY_USED"],
  ["stripeTrial", "trial", "refused TRIAL_ALREADY_USED"],

  ["none", "trial used elsewhere", "free active (trial used)"],
  ["free", "trial used elsewhere", "free active (trial used)"],
  ["trialing", "trial used elsewhere", "same"],
  ["ended", "trial used elsewhere", "same"],

  ["active", "payment failed", "pro past_due/month until 10d"],
  ["pastDue", "payment failed", "same"],
  ["trialing", "payment failed", "same"],
  ["unpaid", "payment failed", "same"]
]

describe("subscription rules: state × event → state", () => {
  it.each(TABLE)("%s, %s → %s", (state, event, expected) => {
    const before = STATES[state]
    const after = EVENTS[event]!(before)
    expect(after === undefined ? "same" : outcome(before, after)).toBe(expected)
  })

  it("covers every state and every event", () => {
    expect(new Set(TABLE.map(([state]) => state))).toEqual(new Set(Object.keys(STATES)))
    expect(new Set(TABLE.map(([, event]) => event))).toEqual(new Set(Object.keys(EVENTS)))
  })

  it("reviews a record when time can change it, and never an ended one", () => {
    expect(reviewAt(STATES.trialing!)).toEqual(PERIOD_END)
    expect(reviewAt(STATES.active!)).toEqual(PERIOD_END)
    expect(reviewAt({ ...STATES.active!, provider: "stripe" })).toBeNull()
    expect(reviewAt({ ...STATES.cancelling!, provider: "stripe" })).toEqual(PERIOD_END)
    // A trial at Stripe ends when Stripe says so; one cancelled ends with its period, which is the trial's.
    expect(reviewAt(STATES.stripeTrial!)).toBeNull()
    expect(reviewAt({ ...STATES.stripeTrial!, cancel_at_period_end: true })).toEqual(PERIOD_END)
    expect(reviewAt(STATES.ended!)).toBeNull()
  })
})

describe("following the provider's subscription", () => {
  const reported = (fields: Partial<ProviderSubscription> = {}): ProviderSubscription => ({
    subscriptionId: "sub_1",
    customerId: "cus_1",
    plan: "pro",
    interval: "month",
    status: "active",
    periodEnd: PERIOD_END,
    cancelAtPeriodEnd: false,
    trialStart: null,
    trialEnd: null,
    ...fields
  })
  const following = (fields: Partial<SubscriptionRecord> = {}) => paid({ provider: "stripe", stripe_subscription_id: "sub_1", stripe_customer_id: "cus_1", ...fields })
  const at = (days: number) => new Date(NOW.getTime() + days * DAY)

  it.each<[string, SubscriptionRecord | undefined, ProviderSubscription, Date, string]>([
    ["a new subscription", undefined, reported(), at(0), "pro active/month until 10d"],
    ["a trial (its start marks the trial used)", undefined, reported({ status: "trialing", trialStart: at(0), trialEnd: PERIOD_END }), at(0), "pro trialing/month until 10d (trial used)"],
    ["a trial cancelled at once still marks it used", { ...NO_RECORD, provider: "stripe" }, reported({ status: "canceled", trialStart: at(0) }), at(0), "free canceled/month until 10d (trial used)"],
    ["a renewal", following(), reported({ periodEnd: at(40) }), at(1), "pro active/month until 40d"],
    ["a lower plan in the period paid is a downgrade", following({ plan_id: "enterprise" }), reported(), at(1), "enterprise active/month until 10d (then pro)"],
    ["a higher plan is given at once", following(), reported({ plan: "enterprise" }), at(1), "enterprise active/month until 10d"],
    ["unpaid gives Free", following(), reported({ status: "unpaid" }), at(1), "free unpaid/month until 10d"],
    ["paused gives Free", following(), reported({ status: "paused" }), at(1), "free paused/month until 10d"],
    ["paid again after unpaid", following({ status: "unpaid" }), reported(), at(2), "pro active/month until 10d"],
    ["ended", following(), reported({ status: "canceled" }), at(3), "free canceled/month until 10d"],
    ["an earlier subscription ending does not end the live one", following({ stripe_subscription_id: "sub_2" }), reported({ status: "canceled" }), at(3), "same"],
    ["an event older than the one that ended it does not reopen it", following({ plan_id: "free", status: "canceled", closed_by_event_at: at(3) }), reported(), at(2), "same"],
    ["nor does one of the same second", following({ plan_id: "free", status: "canceled", closed_by_event_at: at(3) }), reported(), at(3), "same"],
    ["a later one does (a new subscription)", following({ plan_id: "free", status: "canceled", closed_by_event_at: at(3) }), reported({ subscriptionId: "sub_3" }), at(4), "pro active/month until 10d"]
  ])("%s", (_name, current, subscription, eventAt, expected) => {
    expect(outcome(current, followProvider(current, subscription, eventAt))).toBe(expected)
  })

  it("remembers when the event that ended the subscription was created", () => {
    expect(followProvider(following(), reported({ status: "canceled" }), at(3)).closed_by_event_at).toEqual(at(3))
    expect(followProvider(following(), reported(), at(3)).closed_by_event_at).toBeNull()
  })
})
