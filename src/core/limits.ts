/**
 * Business constants, limits and timers, each named once.
 * Durations are in milliseconds unless the name says seconds.
 */

import { HOUR_MS, MINUTE_MS, SECOND_MS } from "./time"

// API client
export const API_REQUEST_TIMEOUT_MS = 8 * SECOND_MS

// Offers
export const FREE_TRIAL_DAYS = 14
export const MONEY_BACK_GUARANTEE_DAYS = 30
export const SUPPORT_REPLY_HOURS = 24

// Model calls (questions and translations together) one account may have running at once, on every instance
export const MAX_MODEL_CALLS_IN_FLIGHT = 3
/** What a caller refused for having that many running is told to wait: one of them is usually done by then. */
export const MODEL_CALLS_RETRY_AFTER_SECONDS = 2

// Password policy defaults
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const PASSWORD_SEQUENTIAL_OR_REPEATED_LIMIT = 3
export const PASSWORD_RECENT_HISTORY = 5
export const LOGIN_RATE_LIMIT_ATTEMPTS = 5
export const LOGIN_LOCKOUT_DURATION_MS = 15 * MINUTE_MS

// Timers
export const RESEND_COOLDOWN_SECONDS = 60
/**
 * How often the "Check your email" page asks whether the address has been verified (also when
 * the tab comes back into view): well inside the 30 look-ups per 15 minutes a client may make.
 */
export const VERIFICATION_CHECK_INTERVAL_SECONDS = 60
export const DEFAULT_RETRY_AFTER_SECONDS = RESEND_COOLDOWN_SECONDS
export const EXTENSION_TAB_CLOSE_DELAY_MS = 2 * SECOND_MS
export const RESET_PASSWORD_REDIRECT_MS = 3 * SECOND_MS
export const CHANGE_PASSWORD_REDIRECT_MS = 2 * SECOND_MS
export const DELETE_ACCOUNT_FALLBACK_REDIRECT_MS = 2 * SECOND_MS
export const ADMIN_NOTICE_FADE_MS = 3 * SECOND_MS
export const MOCK_PAYMENT_WAIT_MS = 2 * SECOND_MS
export const LOGOUT_FLAG_RESET_MS = 2 * SECOND_MS
export const LOGOUT_FAILURE_REDIRECT_MS = 1 * SECOND_MS
export const PROFILE_FETCH_DELAY_MS = 1 * SECOND_MS

// Tokens
export const TOKEN_EXPIRY_MARGIN_SECONDS = 300
export const TOKEN_MONITOR_INTERVAL_MS = 120 * SECOND_MS
export const TOKEN_FIRST_CHECK_DELAY_MS = 5 * SECOND_MS
export const TOKEN_SCHEDULE_WINDOW_SECONDS = 600
export const TOKEN_REFRESH_LEAD_SECONDS = 120
export const PROVIDER_REFRESH_INTERVAL_MS = 600 * SECOND_MS
export const REFRESH_AFTER_USER_SET_MS = 5 * SECOND_MS
export const EXTENSION_TOKEN_LIFETIME_MS = 60 * MINUTE_MS

// Feedback
export const FEEDBACK_MESSAGE_MIN_LENGTH = 10
export const FEEDBACK_MESSAGE_DISPLAY_MAX = 1000
export const FEEDBACK_MAX_IMAGES = 5
export const FEEDBACK_MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const FEEDBACK_THUMBNAILS_SHOWN = 3
/** Confirmation e-mails of the feedback form: anyone may name any address, so they are few per address and in all. */
export const FEEDBACK_CONFIRMATIONS_PER_ADDRESS = 3
export const FEEDBACK_CONFIRMATIONS_PER_SERVER = 200
export const FEEDBACK_CONFIRMATION_WINDOW_MS = HOUR_MS

// Toasts
export const TOAST_ERROR_DURATION_MS = 4 * SECOND_MS
export const TOAST_DEFAULT_DURATION_MS = 4 * SECOND_MS
export const TOAST_SUCCESS_DURATION_MS = 2 * SECOND_MS
export const TOAST_MAX_VISIBLE = 20

// Data fetching (react-query defaults)
export const QUERY_RETRY = 1
export const QUERY_STALE_TIME_MS = 5 * MINUTE_MS
export const QUERY_CACHE_TIME_MS = 10 * MINUTE_MS

// Sample images of the Image Query page
export const SAMPLE_IMAGE_COUNT = 30
export const SAMPLE_IMAGE_SIZES = [800, 1024, 1200, 1600] as const
