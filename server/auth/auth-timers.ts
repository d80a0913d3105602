/** Lifetimes of the server's credentials: an access token lasts one hour, a refresh token keeps a session for 30 days. */
const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export const ACCESS_TOKEN_LIFETIME_SECONDS = 60 * 60
export const REFRESH_TOKEN_LIFETIME_MS = 30 * DAY
/** Two tabs refreshing at once: the second presentation of a just-rotated token gets the same answer. */
export const REFRESH_REUSE_GRACE_MS = 30 * SECOND
export const EMAIL_VERIFICATION_CODE_LIFETIME_MS = 24 * HOUR
export const PASSWORD_RESET_CODE_LIFETIME_MS = 60 * MINUTE
/** How long the browser that registered (or was told EMAIL_NOT_VERIFIED) may ask whether the address is verified. */
export const VERIFICATION_CHECK_TOKEN_LIFETIME_SECONDS = 60 * 60
