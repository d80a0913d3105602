/**
 * An organisation's single sign-on with its identity provider (OpenID Connect): the settings its owner saves, as the
 * server answers them (never the client secret).
 */
import * as z from "zod"

export const ssoSettingsRequestSchema = z.strictObject({
  issuer: z.url({ protocol: /^https?$/, message: "Enter the provider's issuer address, such as https://login.example.com" }).max(500),
  clientId: z.string().trim().min(1, "Enter the client ID the provider gave you").max(200),
  clientSecret: z.string().min(1, "Enter the client secret the provider gave you").max(500),
  /** Password and Google sign-in refused for addresses on the organisation's verified domains (its owner excepted). */
  enforced: z.boolean().default(false)
})
export type SsoSettingsRequest = z.infer<typeof ssoSettingsRequestSchema>

export const ssoSettingsSchema = z.object({
  configured: z.boolean(),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  enforced: z.boolean(),
  updatedAt: z.string().nullable()
})
export type SsoSettings = z.infer<typeof ssoSettingsSchema>

/** What the provider's discovery document said when the owner tested settings before saving them. */
export const ssoTestResultSchema = z.object({ issuer: z.string(), authorizationEndpoint: z.string().nullable() })
export type SsoTestResult = z.infer<typeof ssoTestResultSchema>

/** How long a sign-in started with the provider waits for the person to come back. */
export const SSO_LOGIN_LIFETIME_MS = 10 * 60_000
/** How long the site has to exchange the one-time code of a finished SSO sign-in. */
export const SSO_CODE_LIFETIME_MS = 60_000

export const ssoStartRequestSchema = z.strictObject({ email: z.email("Enter your work e-mail address").max(254) })
export const ssoStartAnswerSchema = z.object({ redirectUrl: z.string() })
export const ssoCompleteRequestSchema = z.strictObject({ code: z.string().min(1).max(200) })

/**
 * Why a sign-in through the provider did not finish: the callback sends the person to /login/sso#error=<reason>, and
 * the site says it in these words.
 */
export const SSO_FAILURES = {
  expired: "This sign-in link has expired or was used already. Start again with Sign in with SSO.",
  provider: "Your identity provider did not sign you in. Try again, or ask your IT department.",
  rejected: "Your identity provider's answer could not be trusted, so you were not signed in. Ask your IT department to check the single sign-on settings.",
  unverifiedEmail: "Your identity provider has not confirmed your e-mail address, so you were not signed in. Ask your IT department.",
  wrongDomain: "Your identity provider signed you in with an address that is not on your organisation's domains. Ask your IT department.",
  otherOrganization: "Your account belongs to another organisation on Image Query AI. Leave it first, or ask support.",
  unavailable: "Your organisation's identity provider could not be reached. Try again in a few minutes.",
  disabled: "This account has been disabled. Contact support if you think this is a mistake.",
  full: "Your organisation has no free seat for you. Ask its administrators.",
  ownPlan: "You have a plan of your own. Cancel it first; once it has ended you can sign in with your organisation."
} as const
export type SsoFailure = keyof typeof SSO_FAILURES

/** What an identity provider sends back to the callback; providers add parameters of their own (iss, session_state). */
export const ssoCallbackQuerySchema = z.looseObject({
  state: z.string().max(500).optional(),
  code: z.string().max(4000).optional(),
  error: z.string().max(500).optional()
})
