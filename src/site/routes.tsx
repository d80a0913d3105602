import { lazy, type ComponentType, type LazyExoticComponent } from "react"
import { Navigate, Route } from "react-router"

import type { Role } from "~core/user"

import { RouteGuard } from "./guard/RouteGuard"
import { EmailLinkRedirect } from "./landing/EmailLinkRedirect"

type Access = "public" | "login" | Role

interface SiteRoute {
  path: string
  access: Access
  Page: LazyExoticComponent<ComponentType>
}

/** The site's routes and who may open them. Each page is its own chunk, so a visit loads only its page. */
export const SITE_ROUTES: readonly SiteRoute[] = [
  { path: "/pricing", access: "public", Page: lazy(() => import("./pricing/PricingPage")) },
  { path: "/payment", access: "public", Page: lazy(() => import("./payment/PaymentPage")) },
  { path: "/blog", access: "public", Page: lazy(() => import("./blog/BlogPage")) },
  { path: "/blog/:slugOrId", access: "public", Page: lazy(() => import("./blog/BlogPostPage")) },
  { path: "/image-query", access: "public", Page: lazy(() => import("./image-query/ImageQueryPage")) },
  { path: "/terms", access: "public", Page: lazy(() => import("./legal/TermsPage")) },
  { path: "/privacy", access: "public", Page: lazy(() => import("./legal/PrivacyPage")) },
  { path: "/cookies", access: "public", Page: lazy(() => import("./legal/CookiesPage")) },
  { path: "/about", access: "public", Page: lazy(() => import("./about/AboutPage")) },
  { path: "/help", access: "public", Page: lazy(() => import("./help/HelpPage")) },
  { path: "/status", access: "public", Page: lazy(() => import("./status/StatusPage")) },
  { path: "/login", access: "public", Page: lazy(() => import("./sign-in/LoginPage")) },
  { path: "/login/sso", access: "public", Page: lazy(() => import("./sign-in/SsoSignInPage")) },
  { path: "/register", access: "public", Page: lazy(() => import("./sign-in/RegisterPage")) },
  { path: "/verify-email", access: "public", Page: lazy(() => import("./sign-in/VerifyEmailPage")) },
  { path: "/reset-password", access: "public", Page: lazy(() => import("./sign-in/ResetPasswordPage")) },
  { path: "/dashboard", access: "login", Page: lazy(() => import("./DashboardRoute")) },
  { path: "/organization", access: "login", Page: lazy(() => import("./OrganizationRoute")) },
  { path: "/organization/join", access: "public", Page: lazy(() => import("./organization/JoinPage")) },
  { path: "/change-password", access: "login", Page: lazy(() => import("./sign-in/ChangePasswordPage")) },
  { path: "/admin", access: "admin", Page: lazy(() => import("./admin/AdminPage")) },
  { path: "/admin/password-policy", access: "admin", Page: lazy(() => import("./admin/password-policy/PasswordPolicyPage")) },
  { path: "/admin/users", access: "admin", Page: lazy(() => import("./admin/users/UsersPage")) },
  { path: "/admin/users/:id", access: "admin", Page: lazy(() => import("./admin/users/UserPage")) },
  { path: "/admin/security", access: "admin", Page: lazy(() => import("./admin/security/SecurityPage")) },
  { path: "/admin/feedback", access: "admin", Page: lazy(() => import("./admin/FeedbackInboxPage")) },
  { path: "/admin/analytics", access: "admin", Page: lazy(() => import("./admin/analytics/AnalyticsPage")) },
  { path: "/admin/billing", access: "admin", Page: lazy(() => import("./admin/billing/BillingPage")) },
  { path: "/admin/content", access: "admin", Page: lazy(() => import("./admin/content/ContentPage")) },
  { path: "/admin/content/new", access: "admin", Page: lazy(() => import("./admin/content/PostEditorPage")) },
  { path: "/admin/content/:id", access: "admin", Page: lazy(() => import("./admin/content/PostEditorPage")) }
]

const LandingRoute = lazy(() => import("./LandingRoute"))
const NotFoundPage = lazy(() => import("./not-found/NotFoundPage"))

function guarded(access: Access, Page: ComponentType) {
  if (access === "public") return <Page />
  return (
    <RouteGuard role={access === "login" ? undefined : access}>
      <Page />
    </RouteGuard>
  )
}

/** The routes as <Route> elements, to be placed under the site layout. */
export function siteRouteElements() {
  return (
    <>
      <Route
        index
        element={
          <EmailLinkRedirect>
            <LandingRoute />
          </EmailLinkRedirect>
        }
      />
      {SITE_ROUTES.map(({ path, access, Page }) => (
        <Route key={path} path={path} element={guarded(access, Page)} />
      ))}
      <Route path="/app" element={<Navigate to="/dashboard" replace />} />
      <Route path="*" element={<NotFoundPage />} />
    </>
  )
}
