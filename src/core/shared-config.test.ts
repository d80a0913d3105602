// @vitest-environment node
import { readFileSync } from "node:fs"

import { describe, expect, it } from "vitest"

import { COMPANY, formatAddress } from "./company"
import { FEATURE_FLAGS } from "./feature-flags"
import * as limits from "./limits"
import { APP_VERSION } from "./version"

describe("shared configuration", () => {
  it("reports the package version as the app version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
    expect(APP_VERSION).toBe(pkg.version)
  })

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

  it("keeps the business limits and timers", () => {
    expect(limits.API_REQUEST_TIMEOUT_MS).toBe(8000)
    expect(limits.FEEDBACK_MAX_IMAGE_BYTES).toBe(5242880)
    expect(limits.LOGIN_LOCKOUT_DURATION_MS).toBe(900000)
    expect(limits.RESEND_COOLDOWN_SECONDS).toBe(60)
    expect(limits.TOKEN_EXPIRY_MARGIN_SECONDS).toBe(300)
    expect(limits.TOKEN_MONITOR_INTERVAL_MS).toBe(120_000)
    expect(limits.PROVIDER_REFRESH_INTERVAL_MS).toBe(600_000)
    expect(limits.EXTENSION_TOKEN_LIFETIME_MS).toBe(3_600_000)
    expect(limits.QUERY_STALE_TIME_MS).toBe(300_000)
    expect(limits.QUERY_CACHE_TIME_MS).toBe(600_000)
    expect(limits.TOAST_MAX_VISIBLE).toBe(20)
  })
})
