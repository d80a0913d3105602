/**
 * The kinds of event the audit log records, named as the admin panel filters them. The log is append-only: nothing
 * recorded is changed or deleted through the API.
 */
export const AUDIT_EVENT_KINDS = ["api_key.created", "api_key.revoked"] as const
export type AuditEventKind = (typeof AUDIT_EVENT_KINDS)[number]
