/**
 * Where a sign-in returns to: the route guard, and the pages that ask to sign in first (an invitation, the payment),
 * carry the page in the router's state through the login and registration pages.
 */

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
