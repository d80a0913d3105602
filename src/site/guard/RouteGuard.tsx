import type { ReactNode } from "react"
import { Navigate, useLocation } from "react-router"

import { useSession } from "~site-session/session-store"
import type { Role } from "~core/user"
import { Spinner } from "~ui/Spinner"

/** Where the login page sends the user back to after signing in. */
export interface LoginRedirectState {
  from: { pathname: string; search: string; hash: string }
}

const DEFAULT_AFTER_SIGN_IN = "/dashboard"

/**
 * Where to go once signed in: the page the guard (or a page asking to sign in, like an invitation's) sent the user
 * from, carried in the router state through the login and registration pages; else the dashboard.
 */
export function afterSignInPath(state: unknown): string {
  const from = (state as LoginRedirectState | null)?.from
  if (!from || from.pathname === "/login" || from.pathname === "/register") return DEFAULT_AFTER_SIGN_IN
  return `${from.pathname}${from.search}${from.hash}`
}

/** Spinner while loading; no user: to /login remembering the origin; wrong role: to /. */
export function RouteGuard({ role, children }: { role?: Role; children: ReactNode }) {
  const status = useSession((state) => state.status)
  const user = useSession((state) => state.user)
  const location = useLocation()

  if (status === "loading") return <Spinner label="Checking your session" />
  if (!user) {
    const state: LoginRedirectState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash }
    }
    return <Navigate to="/login" replace state={state} />
  }
  if (role && user.role !== role) return <Navigate to="/" replace />
  return <>{children}</>
}
