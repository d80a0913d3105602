/** An account's membership of an organisation as the site shows it: the organisation's pages and the dashboard. */
import { membershipSchema, type Membership, type OrganizationRole } from "~core/organizations"

export const ROLE_LABELS: Record<OrganizationRole, string> = { owner: "Owner", admin: "Admin", member: "Member" }

/** The membership a profile's user carries; a profile from before organisations (no field) or a malformed one is none. */
export function membershipOf(user: unknown): Membership | null {
  const organization = (user as { organization?: unknown } | null | undefined)?.organization
  const parsed = membershipSchema.safeParse(organization)
  return parsed.success ? parsed.data : null
}
