/** The audit log's kinds and details in words, for the security page's filter and table. */
import type { AuditEntry } from "~core/admin/audit"

/** Readable names of the kinds; a kind without one (added by a later version) reads as its own words. */
const KIND_LABELS: Record<string, string> = {
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "webhook.created": "Webhook added",
  "webhook.deleted": "Webhook removed",
  "organization.created": "Organisation created",
  "organization.renamed": "Organisation renamed",
  "organization.deleted": "Organisation deleted",
  "organization.member_invited": "Member invited",
  "organization.invitation_revoked": "Invitation withdrawn",
  "organization.member_joined": "Member joined",
  "organization.member_removed": "Member removed",
  "organization.member_left": "Member left",
  "organization.role_changed": "Organisation role changed",
  "organization.ownership_transferred": "Ownership transferred",
  "organization.limit_set": "Organisation limit set",
  "organization.require_mfa_set": "Organisation two-step rule changed",
  "organization.domain_added": "Domain added",
  "organization.domain_verified": "Domain verified",
  "organization.domain_removed": "Domain removed",
  "organization.sso_set": "Single sign-on set up",
  "organization.sso_removed": "Single sign-on turned off",
  "sso.signed_in": "Signed in with SSO",
  "organization.scim_token_created": "SCIM token created",
  "organization.scim_token_revoked": "SCIM token revoked",
  "scim.user_created": "SCIM: member provisioned",
  "scim.user_updated": "SCIM: member updated",
  "scim.user_deactivated": "SCIM: member suspended",
  "scim.user_reactivated": "SCIM: member restored",
  "scim.user_deleted": "SCIM: member removed",
  "sign_in_method.added": "Sign-in method added",
  "sign_in_method.removed": "Sign-in method removed",
  "two_step.enabled": "Two-step sign-in turned on",
  "two_step.disabled": "Two-step sign-in turned off",
  "two_step.recovery_codes_replaced": "Recovery codes replaced",
  "two_step.recovery_code_used": "Recovery code used to sign in",
  "passkey.added": "Passkey added",
  "passkey.removed": "Passkey removed",
  "password.changed": "Password changed",
  "password.reset": "Password reset",
  "sessions.ended": "Sessions ended",
  "account.locked": "Account locked",
  "admin.role_changed": "Admin: role changed",
  "admin.account_disabled": "Admin: account disabled",
  "admin.account_enabled": "Admin: account enabled",
  "admin.verification_resent": "Admin: verification resent",
  "admin.sessions_ended": "Admin: sessions ended",
  "admin.request_limit_set": "Admin: request limit set"
}

export function kindLabel(kind: string): string {
  const label = KIND_LABELS[kind]
  if (label) return label
  const words = kind.replace(/[._]/g, " ")
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** Details as "key: value" pairs, one line of plain text (rendered as text, never as markup). */
export function detailsText(details: AuditEntry["details"]): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${value === null ? "none" : String(value)}`)
    .join(" · ")
}

/** Who did it, as a person reads it: the address, else the account id, else the system. */
export function actorText(actor: AuditEntry["actor"]): string {
  return actor ? (actor.email ?? actor.id ?? "unknown") : "System"
}

export const formatAuditTime = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }) + " UTC"
