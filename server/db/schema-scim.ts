/** The tables of SCIM provisioning (migration 026, server/organizations/scim). Part of DatabaseSchema (schema.ts). */
import type { Defaulted, Timestamp } from "./column-types"

/** An organisation's bearer token for /scim/v2, stored as its hash; a revoked one stays listed nowhere and opens nothing. */
export interface ScimTokensTable {
  id: Defaulted<string>
  organization_id: string
  token_hash: string
  created_by: string | null
  created_at: Timestamp
  last_used_at: Defaulted<Date | null>
  revoked_at: Defaulted<Date | null>
}

/** What SCIM keeps of a member, removed with the membership; suspended_at set while the identity provider says inactive. */
export interface ScimMembersTable {
  user_id: string
  organization_id: string
  external_id: string | null
  given_name: string | null
  family_name: string | null
  /** The account was created by SCIM: only then may SCIM change its address. */
  provisioned: Defaulted<boolean>
  suspended_at: Defaulted<Date | null>
  updated_at: Timestamp
}

/** The SCIM tables as DatabaseSchema takes them in (it extends this interface). */
export interface ScimTables {
  scim_tokens: ScimTokensTable
  scim_members: ScimMembersTable
}
