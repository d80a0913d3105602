/**
 * The mailbox an e-mail address delivers to, for the rules that hold once per person (the free trial, and the traces a
 * deleted account leaves: server/auth/identity-trace-store.ts). Sign-in keeps the address as typed (lower-cased): `ada+work@`
 * stays an account of its own; it only shares the trial and the traces of `ada@`.
 */

/** Providers that ignore dots in the local part, all under one domain: googlemail.com is the same mailbox as gmail.com. */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" }

/**
 * Lower-case, without surrounding spaces, the sub-address (`+anything` before the @) removed, and for Gmail the dots of
 * the local part removed and googlemail.com written gmail.com. Anything that is not one local part and a domain comes back
 * only trimmed and lower-cased; a local part that would be left empty keeps its sub-address.
 */
export function mailboxOf(address: string): string {
  const email = address.trim().toLowerCase()
  const at = email.lastIndexOf("@")
  if (at <= 0 || at === email.length - 1) return email
  let local = email.slice(0, at)
  let domain = email.slice(at + 1)
  const plus = local.indexOf("+")
  if (plus > 0) local = local.slice(0, plus)
  const dotless = DOTLESS_DOMAINS[domain]
  if (dotless) {
    local = local.replaceAll(".", "") || local
    domain = dotless
  }
  return `${local}@${domain}`
}
