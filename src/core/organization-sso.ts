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
