// @vitest-environment node
/**
 * The spec's limits and timers, each read from the module that owns it: moving a constant keeps its value.
 */
import { describe, expect, it } from "vitest"

import { API_REQUEST_TIMEOUT_MS } from "~http/http-client"
import { RESEND_COOLDOWN_SECONDS } from "~core/api-answer"
import { EXTENSION_TOKEN_LIFETIME_MS } from "~core/extension-messages"
import { FEEDBACK_MAX_IMAGE_BYTES } from "~core/admin/feedback"
import { LOGIN_LOCKOUT_DURATION_MS } from "~core/password-policy/defaults"
import { TOKEN_EXPIRY_MARGIN_SECONDS } from "~extension/account/extension-session"
import { PROVIDER_REFRESH_INTERVAL_MS, TOKEN_MONITOR_INTERVAL_MS } from "~site-session/token-monitor"
import { QUERY_CACHE_TIME_MS, QUERY_STALE_TIME_MS } from "~site/query-client"
import { TOAST_MAX_VISIBLE } from "~ui/toast"

describe("the spec's limits and timers", () => {
  it("keeps the business limits and timers", () => {
    expect(API_REQUEST_TIMEOUT_MS).toBe(8000)
    expect(FEEDBACK_MAX_IMAGE_BYTES).toBe(5242880)
    expect(LOGIN_LOCKOUT_DURATION_MS).toBe(900000)
    expect(RESEND_COOLDOWN_SECONDS).toBe(60)
    expect(TOKEN_EXPIRY_MARGIN_SECONDS).toBe(300)
    expect(TOKEN_MONITOR_INTERVAL_MS).toBe(120_000)
    expect(PROVIDER_REFRESH_INTERVAL_MS).toBe(600_000)
    expect(EXTENSION_TOKEN_LIFETIME_MS).toBe(3_600_000)
    expect(QUERY_STALE_TIME_MS).toBe(300_000)
    expect(QUERY_CACHE_TIME_MS).toBe(600_000)
    expect(TOAST_MAX_VISIBLE).toBe(20)
  })
})
