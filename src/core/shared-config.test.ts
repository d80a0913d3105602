// @vitest-environment node
import { describe, expect, it } from "vitest"

import { COMPANY, formatAddress } from "./company"
import { FEATURE_FLAGS } from "./feature-flags"

describe("shared configuration", () => {
  it("has the company address in India and every contact", () => {
    expect(COMPANY.contact.address.country).toBe("India")
    expect(formatAddress()).toMatch(/, India$/)
    for (const key of ["support", "sales", "legal", "privacy", "noreply", "admin"] as const) {
      expect(COMPANY.contact[key].email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/)
    }
    expect(COMPANY.contact.phone.phone).toMatch(/^\+91 /)
    expect(COMPANY.displayName).toBe("Image Query AI")
  })

  it("has the feature flags for sign-in, payments and feedback", () => {
    expect(FEATURE_FLAGS.authentication).toEqual({ providers: ["email", "google"], requireEmailVerification: true })
    expect(FEATURE_FLAGS.payments.currency).toBe("USD")
    expect(FEATURE_FLAGS.feedback).toEqual({ emailNotifications: true, fileUploads: true })
  })
})
