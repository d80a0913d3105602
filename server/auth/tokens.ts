import { createHash, randomBytes } from "node:crypto"

import { errors, jwtVerify, SignJWT } from "jose"

import { ROLES, type Role } from "~core/user"

import { ACCESS_TOKEN_LIFETIME_SECONDS, VERIFICATION_CHECK_TOKEN_LIFETIME_SECONDS } from "./auth-timers"

export interface AccessTokenClaims {
  /** User id. */
  sub: string
  role: Role
  /** Session (refresh-token family) the token was issued for. */
  sid: string
  /** Expiry, seconds since the epoch (as JWT counts it). */
  exp: number
}

const ALGORITHM = "HS256"
const ISSUER = "image-query-ai"

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret)
}

export async function signAccessToken(
  { userId, role, sessionId }: { userId: string; role: Role; sessionId: string },
  secret: string,
  nowMs: number
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(nowMs / 1000)
  const expiresAt = issuedAt + ACCESS_TOKEN_LIFETIME_SECONDS
  const token = await new SignJWT({ role, sid: sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(keyOf(secret))
  return { token, expiresAt }
}

/** Returns the claims of a valid, unexpired token of ours, else null. */
export async function verifyAccessToken(token: string, secret: string, nowMs: number): Promise<AccessTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      currentDate: new Date(nowMs)
    })
    const { sub, role, sid, exp } = payload
    if (typeof sub !== "string" || typeof sid !== "string" || typeof exp !== "number") return null
    if (!(ROLES as readonly unknown[]).includes(role)) return null
    return { sub, role: role as Role, sid, exp }
  } catch (error) {
    if (error instanceof errors.JOSEError) return null
    throw error
  }
}

/** The audience of a verification-check token. Access tokens have none and these have no session, so neither passes for the other. */
const VERIFICATION_CHECK = "verification-check"

/**
 * Lets the browser that registered an address, or was told it is not verified yet, ask whether it
 * is verified now; nobody else learns that state of an address.
 */
export function signVerificationCheckToken(email: string, secret: string, nowMs: number): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000)
  return new SignJWT({})
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(email)
    .setIssuer(ISSUER)
    .setAudience(VERIFICATION_CHECK)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + VERIFICATION_CHECK_TOKEN_LIFETIME_SECONDS)
    .sign(keyOf(secret))
}

/** Whether `token` is a valid, unexpired verification-check token for this (normalised) address. */
export async function allowsVerificationCheck(token: string, email: string, secret: string, nowMs: number): Promise<boolean> {
  try {
    await jwtVerify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: VERIFICATION_CHECK,
      subject: email,
      currentDate: new Date(nowMs)
    })
    return true
  } catch (error) {
    if (error instanceof errors.JOSEError) return false
    throw error
  }
}

/** An opaque random secret for refresh tokens and one-time codes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url")
}

/** Stored in place of opaque tokens: a leaked table holds nothing usable. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url")
}
