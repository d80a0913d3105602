/** How the users pages name a role and show an account's state (disabled, unverified, active). */
import type { AdminUserSummary } from "~core/admin/admin-users"
import type { Role } from "~core/user"

export const ROLE_NAMES: Record<Role, string> = { user: "User", admin: "Admin" }

export function StatusBadges({ user }: { user: Pick<AdminUserSummary, "verified" | "disabled"> }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {user.disabled && <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">Disabled</span>}
      {!user.verified && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Unverified</span>}
      {user.verified && !user.disabled && <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">Active</span>}
    </span>
  )
}

