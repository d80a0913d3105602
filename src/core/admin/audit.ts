/**
 * The kinds of event the audit log records, named as the admin panel filters them. The log is append-only: nothing
 * recorded is changed or deleted through the API.
 */
import * as z from "zod"

export const AUDIT_EVENT_KINDS = [
  "api_key.created",
  "api_key.revoked",
  "webhook.created",
  "webhook.deleted",
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
  "organization.limit_set",
  "organization.require_mfa_set",
  "organization.domain_added",
  "organization.domain_verified",
  "organization.domain_removed",
  "organization.sso_set",
  "organization.sso_removed",
  "organization.scim_token_created",
  "organization.scim_token_revoked",
  "scim.user_created",
  "scim.user_updated",
  "scim.user_deactivated",
  "scim.user_reactivated",
  "scim.user_deleted",
  "sso.signed_in",
  "sign_in_method.added",
  "sign_in_method.removed",
  "two_step.enabled",
  "two_step.disabled",
  "two_step.recovery_codes_replaced",
  "two_step.recovery_code_used",
  "passkey.added",
  "passkey.removed",
  "password.changed",
  "password.reset",
  "sessions.ended",
  "account.locked",
  "admin.role_changed",
  "admin.account_disabled",
  "admin.account_enabled",
  "admin.verification_resent",
  "admin.sessions_ended",
  "admin.request_limit_set",
  "admin.post_created",
  "admin.post_updated",
  "admin.post_published",
  "admin.post_deleted"
] as const
export type AuditEventKind = (typeof AUDIT_EVENT_KINDS)[number]

/** Entries per page of GET /api/admin/audit. */
export const AUDIT_PAGE_SIZE = 50
/** The longest actor filter: an e-mail address at most. */
export const AUDIT_ACTOR_FILTER_MAX = 320

/** An empty filter (`?kind=`) is no filter, as a form sends it. */
const orEmpty = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), schema]).optional()

const isoDay = z.iso.date({ message: "use a date as YYYY-MM-DD" })
/** The filters: kind, actor (an e-mail, part of one, or an account id), days from and to, inclusive, in UTC. */
const filterFields = {
  kind: orEmpty(z.enum(AUDIT_EVENT_KINDS, { message: "use one of the audit log's kinds" })),
  actor: orEmpty(z.string().trim().max(AUDIT_ACTOR_FILTER_MAX)),
  from: orEmpty(isoDay),
  to: orEmpty(isoDay)
}
const inOrder = (filter: { from?: string; to?: string }) => !filter.from || !filter.to || filter.from <= filter.to
const ORDER_MESSAGE = { message: "from must not be after to", path: ["from"] }

/** GET /api/admin/audit.csv: the filters. */
export const auditFilterSchema = z.strictObject(filterFields).refine(inOrder, ORDER_MESSAGE)
export type AuditFilter = z.infer<typeof auditFilterSchema>

/** GET /api/admin/audit: the filters and the page, 1 the newest. */
export const auditQuerySchema = z.strictObject({ ...filterFields, page: z.coerce.number().int().min(1).max(100_000).default(1) }).refine(inOrder, ORDER_MESSAGE)
export type AuditQuery = z.infer<typeof auditQuerySchema>

/** What an entry's details hold: names, ids and counts, never a secret. */
export const auditDetailsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))

/** One entry of the audit log: who (null: the system), what, on whom or what, when, from which address. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.iso.datetime(),
  actor: z.object({ id: z.string().nullable(), email: z.string().nullable() }).nullable(),
  /** The kind (AUDIT_EVENT_KINDS); a string, so an entry of a kind a later version adds still reads. */
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  details: auditDetailsSchema
})
export type AuditEntry = z.infer<typeof auditEntrySchema>

export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), total: z.number().int().min(0), page: z.number().int().min(1) })
export type AuditPage = z.infer<typeof auditPageSchema>

/** The CSV export's columns, in order. */
export const AUDIT_CSV_COLUMNS = ["at", "actor", "action", "target", "ip", "details"] as const
