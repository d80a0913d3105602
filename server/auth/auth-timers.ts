/**
 * Lifetimes of the server's credentials: an access token lasts one hour, a refresh token keeps a session for 30 days
 * of inactivity, and no session outlives 90 days from its sign-in however often it is refreshed.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from "~core/time"

export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60
export const REFRESH_TOKEN_LIFETIME_MS = 30 * DAY_MS
/**
 * The most a session lasts from its creation, refreshes or not: a stolen refresh token is worth at most this long.
 * An extension session lasts no longer than the site session it was opened from.
 */
export const SESSION_ABSOLUTE_LIFETIME_MS = 90 * DAY_MS
/**
 * Two tabs refreshing at once: a just-rotated token presented again this soon gets a new access token (never the
 * newest refresh token); later it counts as reuse and ends the session.
 */
export const REFRESH_REUSE_GRACE_MS = 30 * SECOND_MS
/** An account without a password proves it is its owner for a deletion by a sign-in at most this old. */
export const FRESH_SIGN_IN_MS = 5 * MINUTE_MS
export const EMAIL_VERIFICATION_CODE_LIFETIME_MS = 24 * HOUR_MS
export const PASSWORD_RESET_CODE_LIFETIME_MS = 60 * MINUTE_MS
/** How long the browser that registered (or was told EMAIL_NOT_VERIFIED) may ask whether the address is verified. */
export const VERIFICATION_CHECK_TOKEN_LIFETIME_SECONDS = 60 * 60
