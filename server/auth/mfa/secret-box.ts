/**
 * Secrets the database keeps sealed (an authenticator app's secret): AES-256-GCM under a key derived from the token
 * secret with HKDF, which lives in the server's configuration, never in the database. A copy of the database alone
 * opens nothing; a sealed value changed in the database fails to open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"

const VERSION = "v1"

function keyOf(tokenSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", tokenSecret, "image-query-ai sealed secrets", purpose, 32))
}

/** "v1.<iv>.<tag>.<ciphertext>", base64url; `purpose` binds it to one use (and the account, when given in it). */
export function seal(plain: string, tokenSecret: string, purpose: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", keyOf(tokenSecret, purpose), iv)
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), sealed.toString("base64url")].join(".")
}

/** The plain value; throws when the value was changed or sealed with another key or purpose. */
export function open(sealed: string, tokenSecret: string, purpose: string): string {
  const [version, iv, tag, body] = sealed.split(".")
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Not a sealed value")
  const decipher = createDecipheriv("aes-256-gcm", keyOf(tokenSecret, purpose), Buffer.from(iv, "base64url"))
  decipher.setAuthTag(Buffer.from(tag, "base64url"))
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
}
