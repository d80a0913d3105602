import type { ReactNode } from "react"
import { Navigate, useLocation } from "react-router"

import { emailLinkRedirect } from "./email-link-redirect"

/** An e-mail link that landed on the home page goes on to its page; any other visit sees the home page (`children`). */
export function EmailLinkRedirect({ children }: { children: ReactNode }) {
  const { search } = useLocation()
  const redirect = emailLinkRedirect(search)
  if (redirect) return <Navigate to={redirect} replace />
  return <>{children}</>
}
