import { lazy } from "react"
import { Navigate, useLocation } from "react-router"

import { emailLinkRedirect } from "./email-link-redirect"

const LandingPage = lazy(() => import("./LandingPage"))

export function LandingRoute() {
  const { search } = useLocation()
  const redirect = emailLinkRedirect(search)
  if (redirect) return <Navigate to={redirect} replace />
  return <LandingPage />
}
