import type { ReactNode } from "react"
import { Navigate, useLocation } from "react-router"

import { useSession } from "~site-session/session-store"
import type { Role } from "~core/user"
import { Spinner } from "~ui/Spinner"
import type { LoginRedirectState } from "~site/shared/login-redirect"

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
