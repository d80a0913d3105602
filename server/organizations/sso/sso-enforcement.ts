/**
 * An organisation that enforces single sign-on refuses every other way in (a password, Google, a passkey on its own)
 * for addresses on its verified domains, so that people the company removes at its provider cannot come back another
 * way. Its owner is let through, so that a broken provider cannot lock the company out.
 */
import { ApiError } from "../../http/errors"
import type { Db } from "../../db/transaction"
import { findEnforcingOrganization } from "./sso-sign-in-store"

export const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1).trim().toLowerCase()

/** Throws 403 SSO_REQUIRED for an address whose organisation enforces SSO, unless `userId` is that organisation's owner. */
export async function refuseWhereSsoIsRequired(db: Db, email: string, userId: string | null): Promise<void> {
  // An id no account has (a nil uuid) when there is no account yet: nobody is the owner then.
  const enforcing = await findEnforcingOrganization(db, domainOf(email), userId ?? "00000000-0000-0000-0000-000000000000")
  if (enforcing && !enforcing.owner_id) {
    throw new ApiError(403, "SSO_REQUIRED", `${enforcing.name} signs you in through its identity provider. Choose "Sign in with SSO" and enter your work e-mail address.`)
  }
}
