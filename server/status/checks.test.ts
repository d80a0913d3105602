import { describe, expect, it } from "vitest"

import { PLANS, type Plan } from "~core/billing/plans"

import { authenticationCheck, paymentCheck, paymentConfigurationProblems, runCheck } from "./checks"

describe("the payment configuration check", () => {
  it("accepts the shipped plans and says that no card provider is connected", async () => {
    expect(paymentConfigurationProblems(PLANS, "USD")).toEqual([])
    const result = await paymentCheck("test")()
    expect(result.status).toBe("operational")
    expect(result.message).toMatch(/Payments run in test mode: no card is charged/)
  })

  it("names every problem of a broken configuration and reports an outage", async () => {
    const broken: Plan[] = [
      { ...PLANS[1]!, price: 0 },
      { ...PLANS[2]!, annualPrice: 99 * 12 },
      { ...PLANS[2]!, price: 9.5, annualPrice: 100 }
    ]
    expect(paymentConfigurationProblems(broken, "dollars")).toEqual([
      'the currency "dollars" is not a three-letter code',
      "Pro: a paid plan needs a monthly price",
      "Enterprise: the annual price saves nothing",
      "the plan id enterprise appears twice",
      "Enterprise: the price must be a whole, non-negative amount"
    ])
    expect((await paymentCheck("test", broken, "USD")()).status).toBe("outage")
    expect(paymentConfigurationProblems([], "USD")).toEqual(["there are no plans"])
  })
})

describe("the authentication check", () => {
  it("signs and verifies a token with the server's key", async () => {
    const result = await authenticationCheck("k".repeat(32), () => Date.UTC(2026, 10, 22))()
    expect(result.status).toBe("operational")
  })

  it("reports an outage when the key cannot sign", async () => {
    const result = await authenticationCheck("", () => Date.UTC(2026, 10, 22))()
    expect(result).toEqual({ status: "outage", message: "Sign-in tokens cannot be signed." })
  })
})

describe("runCheck", () => {
  it("turns a check that never finishes into an outage after the time limit", async () => {
    const result = await runCheck(() => new Promise(() => undefined), 20)
    expect(result).toEqual({ status: "outage", message: "The check did not finish within 0.02 s." })
  })

  it("turns a check that throws into an outage", async () => {
    const result = await runCheck(() => Promise.reject(new Error("boom")))
    expect(result).toEqual({ status: "outage", message: "The check failed." })
  })
})
