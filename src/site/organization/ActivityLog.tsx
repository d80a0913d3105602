/**
 * The organisation's activity: its latest changes (members, rules, domains) from the audit log, in words (who did
 * what, to whom), newest first, each with its date. Names and addresses are people's own text: rendered as text.
 */
import type { OrganizationActivity } from "~core/organizations"
import { longDate } from "~core/format"
import { failureText } from "~site/shared/failure-text"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"

import { useActivity } from "./organization-requests"

const who = (person: OrganizationActivity["actor"]) => person?.name || person?.email || "Someone"
const text = (value: unknown) => (typeof value === "string" ? value : "")

/** One change in a sentence. */
export function describeActivity(event: OrganizationActivity): string {
  const actor = who(event.actor)
  const subject = who(event.subject)
  const { detail } = event
  switch (event.kind) {
    case "organization.created":
      return `${actor} created ${text(detail.name)}`
    case "organization.renamed":
      return `${actor} renamed it from ${text(detail.from)} to ${text(detail.to)}`
    case "organization.member_invited":
      return `${actor} invited ${text(detail.email)} as ${text(detail.role)}`
    case "organization.invitation_revoked":
      return `${actor} withdrew the invitation to ${text(detail.email)}`
    case "organization.member_joined":
      return `${actor} joined as ${text(detail.role)}`
    case "organization.member_left":
      return `${actor} left`
    case "organization.member_removed":
      return `${actor} removed ${subject}`
    case "organization.role_changed":
      return `${actor} made ${subject} ${text(detail.to)}`
    case "organization.ownership_transferred":
      return `${actor} handed the ownership to ${subject}`
    case "organization.require_mfa_set":
      return detail.requireMfa === true ? `${actor} required two-step sign-in of every member` : `${actor} stopped requiring two-step sign-in`
    case "organization.domain_added":
      return `${actor} added the domain ${text(detail.domain)}`
    case "organization.domain_verified":
      return `${actor} verified the domain ${text(detail.domain)}`
    case "organization.domain_removed":
      return `${actor} removed the domain ${text(detail.domain)}`
    case "organization.sso_set":
      return `${actor} set up single sign-on with ${text(detail.issuer)}${detail.enforced === true ? ", required for the organisation's domains" : ""}`
    case "organization.sso_removed":
      return `${actor} turned single sign-on off`
    case "organization.scim_token_created":
      return `${actor} created a SCIM token for the identity provider`
    case "organization.scim_token_revoked":
      return `${actor} revoked a SCIM token`
    case "scim.user_created":
      return `The identity provider added ${subject}`
    case "scim.user_updated":
      return `The identity provider updated ${subject} (${text(detail.changed)})`
    case "scim.user_deactivated":
      return `The identity provider suspended ${subject}`
    case "scim.user_reactivated":
      return `The identity provider restored ${subject}'s access`
    case "scim.user_deleted":
      return `The identity provider removed ${subject}`
    case "organization.limit_set":
      return detail.to === null ? "The monthly limit was lifted" : `The monthly limit was set to ${String(detail.to)} requests`
    default:
      return event.kind
  }
}

export function ActivityLog() {
  const activity = useActivity()
  if (activity.isPending) return <Spinner label="Loading the activity" />
  if (activity.isError) return <Notice tone="error">{failureText(activity.error)}</Notice>
  if (activity.data.length === 0) return <p className="text-sm text-gray-600">Nothing has happened yet.</p>
  return (
    <ol className="divide-y divide-gray-100 text-sm" aria-label="Latest changes, newest first">
      {activity.data.map((event, index) => (
        <li key={`${event.at}-${index}`} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
          <span className="min-w-0 break-words">{describeActivity(event)}</span>
          <time dateTime={event.at} className="shrink-0 text-xs text-gray-500">
            {longDate(event.at)}
          </time>
        </li>
      ))}
    </ol>
  )
}
