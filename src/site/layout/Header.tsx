/** The site's header: logo, main navigation and account on wide screens; below md a Radix Collapsible menu. */
import { Collapsible } from "radix-ui"
import { useState } from "react"
import { Link, NavLink, useLocation } from "react-router"

import { useSession } from "~site-session/session-store"
import { Menu, X } from "~ui/icons"
import { Logo } from "~ui/Logo"
import { buttonStyles } from "~ui/styles"
import { useLogout } from "~site/shared/use-logout"
import { MAIN_NAV } from "~site/shared/navigation"

import { accountLinks, Avatar, planLabelOf, UserMenu } from "./UserMenu"

const AUTH_LINKS = [
  { label: "Login", to: "/login", style: buttonStyles.ghost },
  { label: "Sign up", to: "/register", style: buttonStyles.primary }
] as const

export function Header() {
  const location = useLocation()
  const user = useSession((state) => state.user)
  const logout = useLogout()
  // The menu belongs to the location it was opened at, so any navigation closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null)
  const menuOpen = menuOpenAt === location.key

  return (
    <Collapsible.Root asChild open={menuOpen} onOpenChange={(open) => setMenuOpenAt(open ? location.key : null)}>
      <header className="sticky top-0 z-40 border-b border-gray-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
          <Link to="/" className="rounded-md focus-ring">
            <Logo />
          </Link>

          <nav aria-label="Main" className="hidden md:block">
            <ul className="flex items-center gap-1">
              {MAIN_NAV.map((item) => (
                <li key={item.label}>
                  <NavLink to={item.to} end className={buttonStyles.ghost}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>

          <div className="hidden items-center gap-2 md:flex">
            {user ? (
              <UserMenu user={user} />
            ) : (
              AUTH_LINKS.map((link) => (
                <Link key={link.to} to={link.to} className={link.style}>
                  {link.label}
                </Link>
              ))
            )}
          </div>

          {/* Our id on the menu, so the trigger names it whether open or not. */}
          <Collapsible.Trigger className={`${buttonStyles.ghost} md:hidden`} aria-controls="mobile-menu" aria-label={menuOpen ? "Close menu" : "Open menu"}>
            {menuOpen ? <X aria-hidden="true" className="h-6 w-6" /> : <Menu aria-hidden="true" className="h-6 w-6" />}
          </Collapsible.Trigger>
        </div>

        <Collapsible.Content asChild id="mobile-menu">
          <nav aria-label="Mobile" className="border-t border-gray-200 bg-white px-4 pb-4 pt-2 md:hidden">
            <ul className="flex flex-col gap-1">
              {MAIN_NAV.map((item) => (
                <li key={item.label}>
                  <Link to={item.to} className={`${buttonStyles.ghost} w-full justify-start`}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
            <div className="mt-3 flex flex-col gap-2 border-t border-gray-200 pt-3">
              {user ? (
                <>
                  <div className="flex items-center gap-2 px-3 py-2 text-sm font-medium">
                    <Avatar name={user.name} />
                    <span className="truncate">{user.name}</span>
                    <span className="ml-auto shrink-0 text-xs font-semibold text-gray-500">{planLabelOf(user)}</span>
                  </div>
                  {accountLinks(user).map((link) => (
                    <Link key={link.to} to={link.to} className={`${buttonStyles.ghost} w-full justify-start`}>
                      {link.label}
                    </Link>
                  ))}
                  <button type="button" className={`${buttonStyles.ghost} w-full justify-start`} onClick={() => void logout()}>
                    Logout
                  </button>
                </>
              ) : (
                AUTH_LINKS.map((link) => (
                  <Link key={link.to} to={link.to} className={`${link.style} w-full`}>
                    {link.label}
                  </Link>
                ))
              )}
            </div>
          </nav>
        </Collapsible.Content>
      </header>
    </Collapsible.Root>
  )
}
