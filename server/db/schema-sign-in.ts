/**
 * The tables of how people prove who they are beyond a password (migrations 020 to 025): two-step sign-in, passkeys,
 * and an organisation's domains and identity provider. Part of DatabaseSchema (schema.ts).
 */
import type { Defaulted, Timestamp } from "./column-types"

/** Two-step sign-in (server/auth/mfa): the app's secret sealed, enabled once a code confirmed it. */
export interface TotpFactorsTable {
  user_id: string
  secret_sealed: string
  enabled_at: Timestamp | null
  /** The latest 30-second step a code was accepted for: each code is used once. */
  last_step: Defaulted<number | null>
  created_at: Timestamp
}
export interface RecoveryCodesTable {
  code_hash: string
  user_id: string
  used_at: Defaulted<Date | null>
}
export interface MfaChallengesTable {
  token_hash: string
  user_id: string
  expires_at: Timestamp
  wrong_codes: Defaulted<number>
}
/** Passkeys (server/auth/mfa): WebAuthn credentials, each a sign-in on its own (user verification required). */
export interface PasskeysTable {
  id: Defaulted<string>
  user_id: string
  /** base64url, as the browser names the credential. */
  credential_id: string
  /** The COSE public key, base64url. */
  public_key: string
  /** A bigint: read back as a string on PostgreSQL. */
  counter: number | string
  transports: Defaulted<string[]>
  name: string
  created_at: Timestamp
  last_used_at: Defaulted<Date | null>
}
export interface WebauthnChallengesTable {
  challenge: string
  purpose: "registration" | "authentication"
  user_id: string | null
  expires_at: Timestamp
}
/** An organisation's claimed e-mail domain, verified once its DNS TXT record holds the token. */
export interface OrganizationDomainsTable {
  organization_id: string
  domain: string
  token: string
  created_at: Timestamp
  verified_at: Defaulted<Date | null>
}
/** An organisation's OpenID Connect provider; the client secret sealed (server/auth/mfa/secret-box). */
export interface OrganizationSsoTable {
  organization_id: string
  issuer: string
  client_id: string
  client_secret_sealed: string
  enforced: Defaulted<boolean>
  updated_at: Timestamp
}
/** A sign-in started with an organisation's provider, until the person comes back (taken once, 10 minutes). */
export interface SsoLoginsTable {
  state_hash: string
  organization_id: string
  code_verifier: string
  nonce: string
  expires_at: Timestamp
}
/** The one-time code a finished SSO sign-in leaves for the site (its hash; taken once, 60 seconds). */
export interface SsoCodesTable {
  code_hash: string
  user_id: string
  expires_at: Timestamp
}
