import { DropdownMenu } from "radix-ui"
import { useNavigate } from "react-router"

import { getPlan } from "~core/billing/plans"
import { planIdOfUser, type User } from "~core/user"
import { useLogout } from "~site/shared/use-logout"

export interface AccountLink {
  label: string
  to: string
}

/** Dashboard for everyone, Admin Panel for admins. */
export function accountLinks(user: User): AccountLink[] {
  return [{ label: "Dashboard", to: "/dashboard" }, ...(user.role === "admin" ? [{ label: "Admin Panel", to: "/admin" }] : [])]
}

/** "Pro plan": the account's plan as its stored user object says, shown under the e-mail. */
export const planLabelOf = (user: User) => `${getPlan(planIdOfUser(user)).name} plan`

/**
 * The circle with the name's first letter. The letter is drawn by CSS, not written as text: the menu button's visible
 * text is then the name alone, as its accessible name says ("Account menu for Ada Lovelace").
 */
export function Avatar({ name }: { name: string }) {
  return (
    <span
      aria-hidden="true"
      data-initial={name.trim().charAt(0) || "?"}
      className="flex h-8 w-8 items-center justify-center rounded-full bg-blue-600 text-sm font-semibold uppercase text-white before:content-[attr(data-initial)]"
    />
  )
}

const itemStyles =
  "flex cursor-pointer select-none items-center rounded-md px-3 py-2 text-sm text-gray-700 outline-none data-[highlighted]:bg-gray-100 data-[highlighted]:text-brand-secondary"

/** The signed-in header: avatar with the name's first letter, the name, and a dropdown. */
export function UserMenu({ user }: { user: User }) {
  const navigate = useNavigate()
  const logout = useLogout()
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="flex items-center gap-2 rounded-lg px-2 py-1.5 text-sm font-medium text-brand-secondary hover:bg-gray-100 focus-ring"
        aria-label={`Account menu for ${user.name}`}
      >
        <Avatar name={user.name} />
        <span className="max-w-[10rem] truncate">{user.name}</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className="z-50 min-w-[12rem] rounded-lg border border-gray-200 bg-white p-1 shadow-lg">
          <DropdownMenu.Label className="px-3 py-2 text-xs text-gray-500">
            <span className="block truncate">{user.email}</span>
            <span className="mt-0.5 block font-semibold text-brand-secondary" data-testid="header-plan">
              {planLabelOf(user)}
            </span>
          </DropdownMenu.Label>
          {accountLinks(user).map((link) => (
            <DropdownMenu.Item key={link.to} className={itemStyles} onSelect={() => navigate(link.to)}>
              {link.label}
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-gray-200" />
          <DropdownMenu.Item className={itemStyles} onSelect={() => void logout()}>
            Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
