/**
 * Signing in through an organisation's identity provider (OpenID Connect, the authorization code flow with PKCE):
 * start → the provider → callback → a one-time code in the fragment of /login/sso → complete, which answers exactly
 * what password login answers (the second step included, for an account that has one).
 *
 * The callback trusts nothing it is sent: the state must be one this server started and not used (taken once), and
 * openid-client checks the ID token (issuer, audience, expiry, the nonce, the signature against the provider's
 * keys). The address must be verified by the provider and on one of the organisation's verified domains. A new person
 * gets an account without a password and joins as a member (just in time); an existing one joins if they are in no
 * other organisation. The session is not made at the callback: a code in a URL's query would reach logs and the
 * Referer, so the code travels in the fragment and the site exchanges it within a minute.
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify"
import * as client from "openid-client"

import { MAX_ORGANIZATION_MEMBERS } from "~core/organizations"
import { SSO_CODE_LIFETIME_MS, SSO_LOGIN_LIFETIME_MS, type SsoFailure } from "~core/organization-sso"
import { utcDayKey } from "~core/time"

import { countEvent } from "../../admin/analytics/analytics-store"
import { recordAuditEvent } from "../../audit/audit-log-store"
import { carryTraces } from "../../auth/account-traces"
import { accountDisabled } from "../../auth/authenticate"
import { beginSignIn } from "../../auth/mfa/mfa-service"
import { open } from "../../auth/mfa/secret-box"
import { hashToken, randomToken } from "../../auth/tokens"
import { findUserByEmail, findUserById, insertProvisionedUser, markEmailVerified } from "../../auth/user-store"
import { planOf } from "../../billing/plan"
import { inTransaction } from "../../db/transaction"
import { ApiError } from "../../http/errors"
import { queueWebhookEvent } from "../../webhooks/webhook-events"
import * as organizations from "../organization-store"
import { discoverProvider } from "./identity-provider"
import { domainOf } from "./sso-enforcement"
import { ssoSecretPurpose } from "./sso-service"
import * as store from "./sso-sign-in-store"
import { findSso } from "./sso-store"

type SsoRow = NonNullable<Awaited<ReturnType<typeof findSso>>>

/** A sign-in that cannot finish, for the reason the site puts in words. */
class SsoRefusal extends Error {
  constructor(readonly reason: SsoFailure) {
    super(reason)
  }
}

export function ssoSignInService(app: FastifyInstance) {
  const db = app.database.db
  const callbackUrl = `${app.config.publicUrl}/api/auth/sso/callback`
  const toSite = (fragment: Record<string, string>) => `${app.config.publicUrl}/login/sso#${new URLSearchParams(fragment)}`

  const providerOf = (row: SsoRow) =>
    discoverProvider(
      { issuer: row.issuer, clientId: row.client_id, clientSecret: open(row.client_secret_sealed, app.sealingKeys, ssoSecretPurpose(row.organization_id)) },
      app.config.ssoAllowInsecureIssuer
    )

  /** The person's account, made or joined to the organisation in one transaction: any refusal leaves nothing behind. */
  const memberFor = (organizationId: string, identity: { email: string; name: string }, ip: string) =>
    inTransaction(db, async (trx) => {
      const now = new Date(app.clock())
      if (!(await organizations.lockOrganization(trx, organizationId))) throw new SsoRefusal("expired")
      let user = await findUserByEmail(trx, identity.email)
      const created = user ? undefined : await insertProvisionedUser(trx, identity, now)
      // A racing sign-in of the same person made the account first: it is theirs.
      user = user ?? created ?? (await findUserByEmail(trx, identity.email))
      if (!user) throw new SsoRefusal("expired")
      if (user.disabled_at) throw new SsoRefusal("disabled")
      if (created) {
        await carryTraces(app, trx, created)
        await countEvent(trx, "signUps", utcDayKey(now))
      }
      const membership = await organizations.findMembership(trx, user.id)
      if (membership && membership.organization_id !== organizationId) throw new SsoRefusal("otherOrganization")
      if (!membership) {
        if (planOf(user) !== "free") throw new SsoRefusal("ownPlan")
        if ((await organizations.countSeats(trx, organizationId, now)) >= MAX_ORGANIZATION_MEMBERS) throw new SsoRefusal("full")
        await organizations.insertMember(trx, { organizationId, userId: user.id, role: "member", now })
        await recordAuditEvent(trx, { kind: "organization.member_joined", actorId: user.id, subjectId: user.id, detail: { organizationId, role: "member", via: "sso" }, ip }, now)
        await queueWebhookEvent(app, trx, [{ kind: "organization", id: organizationId }], "member.joined", { organizationId, userId: user.id, email: user.email, role: "member", via: "sso" })
      }
      if (!user.email_verified_at) await markEmailVerified(trx, user.id, now)
      await recordAuditEvent(trx, { kind: "sso.signed_in", actorId: user.id, subjectId: user.id, detail: { organizationId, created: Boolean(created) }, ip }, now)
      const code = randomToken()
      await store.insertCode(trx, { codeHash: hashToken(code), userId: user.id, expiresAt: new Date(now.getTime() + SSO_CODE_LIFETIME_MS) })
      return code
    })

  /** The checked identity the provider vouches for, from its answer at the callback. */
  const identityFrom = async (row: SsoRow, current: URL, login: { code_verifier: string; nonce: string }, state: string, log: FastifyBaseLogger) => {
    let configuration: client.Configuration
    try {
      configuration = await providerOf(row)
    } catch (error) {
      log.warn({ reason: (error as Error).message }, "an SSO sign-in could not reach the organisation's provider")
      throw new SsoRefusal("unavailable")
    }
    let claims: client.IDToken | undefined
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, { pkceCodeVerifier: login.code_verifier, expectedState: state, expectedNonce: login.nonce, idTokenExpected: true })
      claims = tokens.claims()
    } catch (error) {
      log.warn({ reason: (error as Error).message }, "an SSO sign-in's answer from the provider was refused")
      throw new SsoRefusal("rejected")
    }
    const email = typeof claims?.email === "string" ? claims.email.trim().toLowerCase() : ""
    // Microsoft Entra ID says it with its optional claim xms_edov (the address's domain verified by the tenant).
    const verified = claims?.email_verified === true || claims?.xms_edov === true
    if (!email || !verified) throw new SsoRefusal("unverifiedEmail")
    if (!(await store.isVerifiedDomainOf(db, row.organization_id, domainOf(email)))) throw new SsoRefusal("wrongDomain")
    const name = typeof claims?.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 100) : email.slice(0, email.indexOf("@"))
    return { email, name }
  }

  return {
    /** The provider's address to send the person to, for an address on a verified domain of an organisation with SSO. */
    async start(email: string): Promise<{ redirectUrl: string }> {
      const domain = domainOf(email)
      const row = await store.findSsoForDomain(db, domain)
      if (!row) throw new ApiError(404, "SSO_NOT_CONFIGURED", `Single sign-on is not set up for ${domain}. Sign in with your password or with Google.`)
      const configuration = await providerOf(row).catch(() => {
        throw new ApiError(503, "SSO_UNAVAILABLE", "Your organisation's identity provider could not be reached. Try again in a few minutes.")
      })
      const state = client.randomState()
      const nonce = client.randomNonce()
      const codeVerifier = client.randomPKCECodeVerifier()
      const now = app.clock()
      await store.purgeExpired(db, new Date(now))
      await store.insertLogin(db, { stateHash: hashToken(state), organizationId: row.organization_id, codeVerifier, nonce, expiresAt: new Date(now + SSO_LOGIN_LIFETIME_MS) })
      const redirectUrl = client.buildAuthorizationUrl(configuration, {
        redirect_uri: callbackUrl,
        scope: "openid email profile",
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
        login_hint: email
      })
      return { redirectUrl: redirectUrl.href }
    },

    /** Where the provider's callback sends the browser: /login/sso with a one-time code, or with why it failed. */
    async callback(requestUrl: string, ip: string, log: FastifyBaseLogger): Promise<string> {
      // The address the provider was given: openid-client takes the redirect_uri from it.
      const current = new URL(requestUrl, callbackUrl)
      const state = current.searchParams.get("state")
      try {
        const login = state ? await store.takeLogin(db, hashToken(state), new Date(app.clock())) : undefined
        if (!state || !login) throw new SsoRefusal("expired")
        if (current.searchParams.has("error")) throw new SsoRefusal("provider")
        const row = await findSso(db, login.organization_id)
        if (!row) throw new SsoRefusal("expired")
        const identity = await identityFrom(row, current, login, state, log)
        return toSite({ code: await memberFor(row.organization_id, identity, ip) })
      } catch (error) {
        if (error instanceof SsoRefusal) return toSite({ error: error.reason })
        throw error
      }
    },

    /** The session of a finished SSO sign-in, for its one-time code: what POST /api/auth/login answers. */
    async complete(code: string) {
      const userId = await store.takeCode(db, hashToken(code), new Date(app.clock()))
      const user = userId ? await findUserById(db, userId) : undefined
      if (!user) throw new ApiError(400, "INVALID_OR_EXPIRED_CODE", "This sign-in link has expired or was used already. Start again with Sign in with SSO.")
      if (user.disabled_at) throw accountDisabled()
      return beginSignIn(app, user)
    }
  }
}
