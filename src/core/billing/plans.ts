/** The three plans, the single source for prices, ranks and request limits. */

export const FREE_TRIAL_DAYS = 14

export const MONEY_BACK_GUARANTEE_DAYS = 30

export const SUPPORT_REPLY_HOURS = 24

export const PLAN_IDS = ["free", "pro", "enterprise"] as const
export type PlanId = (typeof PLAN_IDS)[number]

/**
 * The saving the pricing and payment pages advertise for annual billing. A fixed figure, not computed:
 * the annual prices (10 × monthly) save about 17 % against twelve monthly payments.
 */
export const ANNUAL_SAVINGS_PERCENT = 20

export type RequestLimit =
  | { kind: "monthly"; requests: number }
  | { kind: "unlimited" }
  /** Enterprise: set per account by an admin; unlimited while none is set. */
  | { kind: "custom" }

/** The first line of a plan's features, in the pricing page's words: what its request limit allows. */
export function requestLimitText(limit: RequestLimit): string {
  switch (limit.kind) {
    case "monthly":
      return `Up to ${limit.requests} AI requests per month`
    case "unlimited":
      return "Unlimited AI requests"
    case "custom":
      return "Custom request limits"
  }
}

/** A plan with its request limit's line first among the features, so the two cannot disagree. */
function withLimitFeature(plan: Omit<Plan, "features"> & { otherFeatures: readonly string[] }): Plan {
  const { otherFeatures, ...rest } = plan
  return { ...rest, features: [requestLimitText(plan.requestLimit), ...otherFeatures] }
}

export interface Plan {
  id: PlanId
  name: string
  /** USD per month. */
  price: number
  /** USD per year. */
  annualPrice: number
  interval: "month"
  popular: boolean
  /** free < pro < enterprise: decides Upgrade and Downgrade labels. */
  rank: number
  requestLimit: RequestLimit
  features: readonly string[]
}

export const PLANS: readonly Plan[] = [
  withLimitFeature({
    id: "free",
    name: "Free",
    price: 0,
    annualPrice: 0,
    interval: "month",
    popular: false,
    rank: 0,
    requestLimit: { kind: "monthly", requests: 10 },
    otherFeatures: [
      // Questions and translations the browser's own model answers are not counted (the extension's AI engines).
      "Unlimited AI on your device where your browser supports it",
      "Image detection on any webpage",
      "Local text extraction (OCR)",
      "Local face and object detection",
      "Community support"
    ]
  }),
  withLimitFeature({
    id: "pro",
    name: "Pro",
    price: 19,
    annualPrice: 190,
    interval: "month",
    popular: true,
    rank: 1,
    requestLimit: { kind: "unlimited" },
    otherFeatures: [
      "Everything in Free",
      "API access",
      "Priority support"
    ]
  }),
  withLimitFeature({
    id: "enterprise",
    name: "Enterprise",
    price: 99,
    annualPrice: 990,
    interval: "month",
    popular: false,
    rank: 2,
    requestLimit: { kind: "custom" },
    otherFeatures: [
      "Everything in Pro",
      "White-label",
      "Team management",
      "SLA",
      "Dedicated support"
    ]
  })
]

export function findPlan(id: unknown): Plan | undefined {
  return PLANS.find((plan) => plan.id === id)
}

export function getPlan(id: PlanId): Plan {
  const plan = findPlan(id)
  if (!plan) throw new Error(`Unknown plan ${id}`)
  return plan
}

/** The monthly equivalent of an annual price, rounded as the pricing page shows it. */
export function monthlyEquivalentOfAnnual(plan: Plan): number {
  return Math.round(plan.annualPrice / 12)
}

export type PlanChange = "select" | "current" | "upgrade" | "downgrade"

/** Which button a pricing card shows: Select Plan (anonymous), Current Plan, Upgrade or Downgrade. */
export function planChangeFor(target: Plan, currentPlanId: PlanId | null): PlanChange {
  if (currentPlanId === null) return "select"
  const current = getPlan(currentPlanId)
  if (current.id === target.id) return "current"
  return target.rank > current.rank ? "upgrade" : "downgrade"
}

export const PLAN_CHANGE_LABELS: Record<PlanChange, string> = {
  select: "Select Plan",
  current: "Current Plan",
  upgrade: "Upgrade",
  downgrade: "Downgrade"
}
