/** What the organisation page shows and offers, worked out from the organisation the server answered. */
import { ACCENT_COLOR_PATTERN, managesMembers, type OrganizationMember, type OrganizationRole } from "~core/organizations"

import { figure } from "~site/shared/daily-figures"

/** Whether this row is the signed-in account's own: members are told apart by their e-mail. */
export const isSelf = (member: OrganizationMember, email: string) => member.email.toLowerCase() === email.toLowerCase()

/**
 * Whether the caller (of role `callerRole`) may change the role of, or remove, `member`: the owner anyone but
 * themself, an admin the members and the other admins but never the owner, a member nobody. One's own row offers
 * leaving instead, and the owner cannot leave (they transfer ownership or delete the organisation).
 */
export function canManage(callerRole: OrganizationRole, member: OrganizationMember, self: boolean): boolean {
  if (self || !managesMembers(callerRole)) return false
  return member.role !== "owner"
}

export interface PoolView {
  /** "412 of 1,000 AI requests used this month", or "412 AI requests used this month · Unlimited". */
  text: string
  /** 0 to 1 for the bar; null when unlimited. */
  fraction: number | null
  tone: "normal" | "high" | "full"
}

/** The pool's use in words and as a bar's share; a limit of null is unlimited. */
export function poolView({ limit, used }: { limit: number | null; used: number }): PoolView {
  const requests = used === 1 ? "AI request" : "AI requests"
  if (limit === null) return { text: `${figure(used)} ${requests} used this month`, fraction: null, tone: "normal" }
  const fraction = limit <= 0 ? 1 : Math.min(1, used / limit)
  return {
    text: `${figure(used)} of ${figure(limit)} AI requests used this month`,
    fraction,
    tone: fraction >= 1 ? "full" : fraction >= 0.8 ? "high" : "normal"
  }
}

/** The colour typed, as the server keeps it (#rrggbb, lower case), or null when it is not one. */
export function accentColorOf(text: string): string | null {
  const color = text.trim().toLowerCase()
  return ACCENT_COLOR_PATTERN.test(color) ? color : null
}

export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"] as const
export const LOGO_MAX_BYTES = 256 * 1024
export const LOGO_RULES = "PNG, JPEG or WebP, at most 256 KB. We crop it to a square from its centre, so keep what matters in the middle."

/** Why a chosen file cannot be the logo, in words; null when it may be sent (the server checks its content again). */
export function logoProblem(file: File): string | null {
  if (!(LOGO_TYPES as readonly string[]).includes(file.type)) return "The logo must be a PNG, JPEG or WebP image."
  if (file.size > LOGO_MAX_BYTES) return `The logo is ${Math.ceil(file.size / 1024)} KB: it must be at most 256 KB.`
  return null
}
