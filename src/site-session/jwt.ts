/**
 * Reads a JWT's payload WITHOUT verifying its signature: only for timing decisions (when to refresh).
 * Never trust anything read here for authorisation; the server verifies every token it receives.
 */

/** The decoded payload object, or null when the token is not a three-part JWT with a JSON object payload. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const parts = token.split(".")
  const payload = parts[1]
  if (parts.length !== 3 || !payload) return null
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/")
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), "="))
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The `exp` claim in seconds since the epoch, or null when missing or not a finite number. */
export function getTokenExpiry(token: string): number | null {
  const exp = decodeJwtPayload(token)?.exp
  return typeof exp === "number" && Number.isFinite(exp) ? exp : null
}

/** Seconds left before `exp` at `nowMs` (negative once expired), or null when the expiry cannot be read. */
export function secondsUntilExpiry(token: string, nowMs: number): number | null {
  const exp = getTokenExpiry(token)
  return exp === null ? null : exp - nowMs / 1000
}
