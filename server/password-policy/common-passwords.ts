import { createRequire } from "node:module"

let commonPasswords: Set<string> | undefined

/**
 * 49,233 of the most used passwords (the zxcvbn frequency list, shipped in
 * @zxcvbn-ts/language-common). Loaded once, on first use; compared without case.
 */
export function isCommonPassword(password: string): boolean {
  if (!commonPasswords) {
    const list = createRequire(import.meta.url)("@zxcvbn-ts/language-common/src/passwords.json") as string[]
    commonPasswords = new Set(list.map((entry) => entry.toLowerCase()))
  }
  return commonPasswords.has(password.toLowerCase())
}
