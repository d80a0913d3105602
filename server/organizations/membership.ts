/**
 * The organisation an account belongs to, as its profile carries it: the site's dashboard says "Member of Acme", and
 * the extension shows the brand in its header and keeps it for offline use.
 */
import type { Membership } from "~core/organizations"

import type { Db } from "../db/transaction"
import { findMembership } from "./organization-store"

/** The logo's public address: a new name for each upload, so a cached copy is never stale. */
export const logoUrlOf = (publicUrl: string, organizationId: string, logoKey: string | null) => (logoKey ? `${publicUrl}/api/organizations/${organizationId}/logo/${logoKey}` : null)

export async function membershipOf(db: Db, publicUrl: string, userId: string): Promise<Membership | null> {
  const membership = await findMembership(db, userId)
  if (!membership) return null
  return {
    id: membership.organization_id,
    name: membership.name,
    role: membership.role,
    brand: { name: membership.name, logoUrl: logoUrlOf(publicUrl, membership.organization_id, membership.logo_key), accentColor: membership.accent_color }
  }
}
