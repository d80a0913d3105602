/**
 * The authenticator app's side of two-step sign-in (RFC 6238 through otpauth: SHA-1, 6 digits, 30 s, one step either
 * side for clocks that drift), the QR code drawn on our server (qrcode, as SVG: nothing goes to another service), and
 * recovery codes (50 random bits each, kept as keyed hashes: high-entropy codes need no slow hash).
 */
import { createHmac, randomBytes } from "node:crypto"

import { Secret, TOTP } from "otpauth"
import QRCode from "qrcode"

import { PRODUCT_NAME } from "~core/company"
import { RECOVERY_CODE_COUNT } from "~core/two-step"

export const TOTP_PERIOD_SECONDS = 30

const totpOf = (secret: string, email: string) =>
  new TOTP({ issuer: PRODUCT_NAME, label: email, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) })

/** A new secret (160 bits, base32) and what the app is given: the otpauth:// address, and it as a QR code. */
export async function newAuthenticator(email: string): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
  const secret = new Secret({ size: 20 }).base32
  const otpauthUrl = totpOf(secret, email).toString()
  const qrSvg = await QRCode.toString(otpauthUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2 })
  return { secret, otpauthUrl, qrSvg }
}

/** The 30-second step the code belongs to (now, the one before or the one after), or null when it is not the app's. */
export function codeStep(secret: string, code: string, now: number): number | null {
  const delta = totpOf(secret, "").validate({ token: code, timestamp: now, window: 1 })
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta
}

/** The code of a step (tests, and the site's own checks of its clock are not needed: the server answers). */
export const codeAt = (secret: string, now: number): string => totpOf(secret, "").generate({ timestamp: now })

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567"

/** RECOVERY_CODE_COUNT new codes, shown as "abcde-23456". */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const letters = [...randomBytes(10)].map((byte) => BASE32[byte % 32]).join("")
    return `${letters.slice(0, 5)}-${letters.slice(5)}`
  })
}

/** A recovery code's keyed hash, from the code as recoveryCodeField reads it (no dash, lower case). */
export function recoveryCodeHash(code: string, key: string): string {
  return createHmac("sha256", key).update(`recovery-code:${code.replaceAll("-", "").toLowerCase()}`).digest("base64url")
}

/** The hashes a stored code may have: under each of the server's sealing keys (see secret-box). */
export const recoveryCodeHashes = (code: string, keys: readonly string[]) => keys.map((key) => recoveryCodeHash(code, key))
