import { describe, expect, it } from "vitest"

import { isUpgrade } from "./billing"

describe("isUpgrade, the rule the server applies and the payment page words", () => {
  it.each([
    { from: "pro", interval: "month", to: "enterprise", annual: false, upgrade: true },
    { from: "pro", interval: "year", to: "enterprise", annual: false, upgrade: true },
    { from: "pro", interval: "month", to: "pro", annual: true, upgrade: true },
    { from: "pro", interval: "year", to: "pro", annual: false, upgrade: false },
    { from: "pro", interval: "year", to: "pro", annual: true, upgrade: false },
    { from: "enterprise", interval: "month", to: "pro", annual: true, upgrade: false },
    { from: "enterprise", interval: "year", to: "pro", annual: false, upgrade: false }
  ] as const)("$from billed by the $interval to $to (annual: $annual): upgrade $upgrade", ({ from, interval, to, annual, upgrade }) => {
    expect(isUpgrade({ plan: from, interval }, { planId: to, annual })).toBe(upgrade)
  })
})
