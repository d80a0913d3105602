/**
 * The kinds of event the audit log records, named as the admin panel filters them. The log is append-only: nothing
 * recorded is changed or deleted through the API.
 */
export const AUDIT_EVENT_KINDS = [
  "api_key.created",
  "api_key.revoked",
  "organization.created",
  "organization.renamed",
  "organization.deleted",
  "organization.member_invited",
  "organization.invitation_revoked",
  "organization.member_joined",
  "organization.member_removed",
  "organization.member_left",
  "organization.role_changed",
  "organization.ownership_transferred",
  "organization.limit_set"
] as const
export type AuditEventKind = (typeof AUDIT_EVENT_KINDS)[number]
