// @vitest-environment node
import { describe, expect, it } from "vitest"

import {
  ANNUAL_SAVINGS_PERCENT,
  findPlan,
  getPlan,
  monthlyEquivalentOfAnnual,
  PLAN_CHANGE_LABELS,
  planChangeFor,
  PLANS,
  requestLimitText
} from "./plans"

describe("plans", () => {
  it("has Free, Pro and Enterprise with their USD prices, ranks and request limits", () => {
    expect(PLANS.map(({ id, name, price, annualPrice, rank, interval }) => ({ id, name, price, annualPrice, rank, interval }))).toEqual([
      { id: "free", name: "Free", price: 0, annualPrice: 0, rank: 0, interval: "month" },
      { id: "pro", name: "Pro", price: 19, annualPrice: 190, rank: 1, interval: "month" },
      { id: "enterprise", name: "Enterprise", price: 99, annualPrice: 990, rank: 2, interval: "month" }
    ])
    expect(getPlan("free").requestLimit).toEqual({ kind: "monthly", requests: 10 })
    expect(getPlan("pro").requestLimit).toEqual({ kind: "unlimited" })
    expect(getPlan("enterprise").requestLimit).toEqual({ kind: "custom" })
  })

  it("marks only Pro as popular", () => {
    expect(PLANS.filter((plan) => plan.popular).map((plan) => plan.id)).toEqual(["pro"])
  })

  it("lists the features Pro and Enterprise promise", () => {
    const pro = getPlan("pro").features.join(" | ")
    expect(pro).toMatch(/Unlimited/)
    expect(pro).toMatch(/API access/)
    expect(pro).toMatch(/Priority support/)
    const enterprise = getPlan("enterprise").features.join(" | ")
    for (const feature of ["White-label", "Team management", "SLA", "Dedicated support"]) expect(enterprise).toContain(feature)
  })

  it("computes the monthly equivalent of the annual price, rounded", () => {
    expect(monthlyEquivalentOfAnnual(getPlan("pro"))).toBe(16) // 190 / 12 = 15.83
    expect(monthlyEquivalentOfAnnual(getPlan("enterprise"))).toBe(83) // 990 / 12 = 82.5
    expect(monthlyEquivalentOfAnnual(getPlan("free"))).toBe(0)
    expect(ANNUAL_SAVINGS_PERCENT).toBe(20)
  })

  it.each([
    [null, ["Select Plan", "Select Plan", "Select Plan"]],
    ["free", ["Current Plan", "Upgrade", "Upgrade"]],
    ["pro", ["Downgrade", "Current Plan", "Upgrade"]],
    ["enterprise", ["Downgrade", "Downgrade", "Current Plan"]]
  ] as const)("labels the plan buttons for a %s user", (current, labels) => {
    expect(PLANS.map((plan) => PLAN_CHANGE_LABELS[planChangeFor(plan, current)])).toEqual(labels)
  })

  it("finds plans by id and nothing else", () => {
    expect(findPlan("toString")).toBeUndefined()
    expect(findPlan(null)).toBeUndefined()
  })
})

describe("a plan's request-limit line", () => {
  it("is written from the plan's limit, first among its features", () => {
    expect(PLANS.map((plan) => plan.features[0])).toEqual(["Up to 10 AI requests per month", "Unlimited AI requests", "Custom request limits"])
    expect(requestLimitText({ kind: "monthly", requests: 25 })).toBe("Up to 25 AI requests per month")
  })
})
