/**
 * E-mail links land on the home page (`/?mode=verifyEmail&oobCode=…`); they are sent on to their
 * pages keeping only mode, oobCode, apiKey and lang, each when present.
 */
const EMAIL_LINK_TARGETS = {
  verifyEmail: { path: "/verify-email", keep: ["mode", "oobCode", "apiKey", "lang"] },
  resetPassword: { path: "/reset-password", keep: ["mode", "oobCode", "apiKey", "lang"] }
} as const

export function emailLinkRedirect(search: string): string | null {
  const params = new URLSearchParams(search)
  const mode = params.get("mode")
  if (!params.get("oobCode") || (mode !== "verifyEmail" && mode !== "resetPassword")) return null
  const target = EMAIL_LINK_TARGETS[mode]
  const kept = new URLSearchParams()
  for (const name of target.keep) {
    const value = params.get(name)
    if (value !== null) kept.set(name, value)
  }
  return `${target.path}?${kept.toString()}`
}
