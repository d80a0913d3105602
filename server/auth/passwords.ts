import { hash, verify } from "@node-rs/argon2"

/** argon2id with the library's defaults (m=19456 KiB, t=2, p=1): about 60 ms here. */
export function hashPassword(password: string): Promise<string> {
  return hash(password)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

let dummyHash: Promise<string> | undefined

/**
 * Verifies against a throw-away hash, so an unknown e-mail costs the same time as a wrong
 * password and the answer time does not reveal which addresses have accounts.
 */
export async function spendVerificationTime(password: string): Promise<void> {
  dummyHash ??= hash("not a real password: only here to spend the time of one verification")
  await verifyPassword(await dummyHash, password)
}
