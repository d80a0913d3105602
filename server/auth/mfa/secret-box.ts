/**
 * Secrets the database keeps sealed (an authenticator app's secret): AES-256-GCM under a key derived with HKDF from
 * the server's configuration, never from the database: `ENCRYPTION_KEY` when it is set, else `TOKEN_SECRET`. A copy of
 * the database alone opens nothing; a sealed value changed in the database fails to open.
 *
 * Values sealed before `ENCRYPTION_KEY` was set still open with the token secret, so that setting it (to rotate the
 * token secret freely afterwards) loses no account's second factor: the keys are tried in order, the first seals.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"

const VERSION = "v1"

/** The keys' source material, the one that seals first; each is tried in turn to open. */
export type SealingKeys = readonly [string, ...string[]]

export function sealingKeys(config: { encryptionKey?: string }, tokenSecret: string): SealingKeys {
  return config.encryptionKey && config.encryptionKey !== tokenSecret ? [config.encryptionKey, tokenSecret] : [tokenSecret]
}

function keyOf(material: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", material, "image-query-ai sealed secrets", purpose, 32))
}

/** "v1.<iv>.<tag>.<ciphertext>", base64url; `purpose` binds it to one use (and the account, when given in it). */
export function seal(plain: string, keys: SealingKeys, purpose: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", keyOf(keys[0], purpose), iv)
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()])
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), sealed.toString("base64url")].join(".")
}

/** The plain value; throws when the value was changed, or sealed with none of the keys or for another purpose. */
export function open(sealed: string, keys: SealingKeys, purpose: string): string {
  const [version, iv, tag, body] = sealed.split(".")
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error("Not a sealed value")
  for (const material of keys) {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(material, purpose), Buffer.from(iv, "base64url"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
    } catch {
      // Sealed with another key, or changed: the next key, or the refusal below.
    }
  }
  throw new Error("The sealed value does not open with the server's keys")
}
