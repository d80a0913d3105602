/**
 * What the organisation page tests share: an in-memory organisation ("Acme": Ada the owner, Grace an admin, Alan a
 * member; Ada alone has two-step sign-in on) behind the site's fake API, answering /api/organizations as the server does
 * (its e-mail domains verified against an in-memory DNS), and the whole app opened signed in as one of them. Test-only: imported by the *.test.tsx files of this folder, never by the app.
 */
import { render, screen } from "@testing-library/react"

import type { Subscription } from "~core/billing/billing"
import { addDomainRequestSchema, domainRecordFor, MAX_ORGANIZATION_DOMAINS, type OrganizationDomain } from "~core/organization-domains"
import type { SsoSettings, SsoSettingsRequest } from "~core/organization-sso"
import type { ScimToken } from "~core/scim"
import type { WebhookDelivery, WebhookEndpoint } from "~core/webhooks"
import { managesMembers, type Invitation, type Organization, type OrganizationActivity, type OrganizationMember, type OrganizationRole } from "~core/organizations"
import type { PlanId } from "~core/billing/plans"
import { SESSION_STORAGE_KEYS, type User } from "~core/user"
import { FREE_SUBSCRIPTION, PERIOD_END } from "~site/shared/billing/subscriptions.test-support"

import { answer, createFakeApi, refuse, resetSiteForTest } from "../fake-api-server"
import { SiteApp } from "../SiteApp"

export const ADA: OrganizationMember = { userId: "00000000-0000-4000-8000-00000000000a", email: "ada@example.com", name: "Ada Lovelace", role: "owner", usedThisMonth: 40, twoStep: true }
export const GRACE: OrganizationMember = { userId: "00000000-0000-4000-8000-00000000000b", email: "grace@example.com", name: "Grace Hopper", role: "admin", usedThisMonth: 12, twoStep: false }
export const ALAN: OrganizationMember = { userId: "00000000-0000-4000-8000-00000000000c", email: "alan@example.com", name: "Alan Turing", role: "member", usedThisMonth: 3, twoStep: false }

export const PENDING: Invitation = { id: "00000000-0000-4000-8000-0000000000e1", email: "edsger@example.com", role: "member", expiresAt: "2030-01-08T00:00:00.000Z" }

export const subscriptionOn = (plan: PlanId): Subscription =>
  plan === "free" ? FREE_SUBSCRIPTION : { ...FREE_SUBSCRIPTION, plan, interval: "month", currentPeriodEnd: PERIOD_END, trialAvailable: false }

export interface World {
  /** Who is signed in. */
  me: { name: string; email: string; plan: PlanId }
  /** The organisation, or null when there is none (GET answers 404). */
  organization: Pick<Organization, "id" | "name" | "members" | "pool" | "brand" | "subscriberId" | "requireMfa"> | null
  invitations: Invitation[]
  activity: OrganizationActivity[]
  /** The organisation's e-mail domains (none when left out). */
  domains?: OrganizationDomain[]
  /** The TXT records the DNS answers, by name, which verifying a domain looks up. */
  dns?: Record<string, string[]>
  /** The organisation's identity provider (none set up when left out). */
  sso?: SsoSettings
  /** The organisation's live SCIM tokens (none when left out). */
  scimTokens?: ScimToken[]
  /** The organisation's webhooks and each one's deliveries (none when left out). */
  webhooks?: WebhookEndpoint[]
  deliveries?: Record<string, WebhookDelivery[]>
}

/** An organisation without single sign-on, as the server answers it. */
export const NO_SSO: SsoSettings = { configured: false, issuer: null, clientId: null, enforced: false, updatedAt: null }

/** When the fake server verifies a domain. */
export const VERIFIED_AT = "2030-01-06T12:00:00.000Z"
/** A claimed domain as the server answers it, its token made of its name. */
export const claimOf = (domain: string, verifiedAt: string | null = null): OrganizationDomain => ({
  domain,
  verified: verifiedAt !== null,
  verifiedAt,
  record: domainRecordFor(domain, `token-${domain}`)
})

export function acmeWorld(me: OrganizationMember = ADA): World {
  return {
    me: { name: me.name, email: me.email, plan: me.role === "owner" ? "enterprise" : "free" },
    organization: {
      id: "org-1",
      name: "Acme",
      members: [{ ...ADA }, { ...GRACE }, { ...ALAN }],
      pool: { limit: 1000, used: 55 },
      brand: { name: "Acme", logoUrl: null, accentColor: "#1d4ed8" },
      // Ada made Acme: her Enterprise subscription pays for it.
      subscriberId: ADA.userId,
      requireMfa: false
    },
    invitations: [{ ...PENDING }],
    activity: [
      { kind: "organization.member_invited", actor: { name: ADA.name, email: ADA.email }, subject: null, detail: { email: PENDING.email, role: "member" }, at: "2026-11-20T10:00:00.000Z" },
      { kind: "organization.created", actor: { name: ADA.name, email: ADA.email }, subject: { name: ADA.name, email: ADA.email }, detail: { name: "Acme" }, at: "2026-11-02T09:00:00.000Z" }
    ]
  }
}

/** The organisation as the signed-in person is answered it: with their role, and who has two-step sign-in on only for the owner and admins. */
function organizationOf(world: World): Organization | null {
  const organization = world.organization
  if (!organization) return null
  const role: OrganizationRole = organization.members.find((member) => member.email === world.me.email)?.role ?? "member"
  const members = organization.members.map(({ twoStep, ...member }) => (managesMembers(role) ? { ...member, twoStep } : member))
  return { ...organization, role, members }
}

const NONE = () => refuse(404, "NOT_FOUND", "You are not in an organisation.")

export function createOrganizationServer(world: World) {
  const current = () => {
    const organization = organizationOf(world)
    return organization ? answer(organization) : NONE()
  }
  const members = () => world.organization?.members ?? []
  const role = () => organizationOf(world)?.role ?? "member"
  const OWNER_ONLY = () => refuse(403, "FORBIDDEN", "Only the organisation's owner can change its domains.")
  const user = () => ({
    name: world.me.name,
    email: world.me.email,
    role: "user",
    provider: "email",
    id: "user-1",
    emailVerified: true,
    createdAt: "2030-01-01T00:00:00.000Z",
    organization: world.organization
      ? { id: world.organization.id, name: world.organization.name, role: organizationOf(world)!.role, brand: world.organization.brand }
      : null
  })
  const server = createFakeApi([
    ["GET /api/auth/profile", () => answer({ user: user() })],
    ["GET /api/auth/auth-status", () => answer({ hasEmailAuth: true, hasGoogleAuth: false, providers: ["email"] })],
    ["GET /api/billing/subscription", () => answer(subscriptionOn(world.me.plan))],
    ["GET /api/organizations/current", current],
    [
      "POST /api/organizations",
      (request) => {
        if (world.me.plan !== "enterprise") return refuse(403, "PLAN_REQUIRED", "Organisations come with the Enterprise plan.")
        const { name } = request.body as { name: string }
        const owner = { ...ADA, name: world.me.name, email: world.me.email, usedThisMonth: 0 }
        world.organization = { id: "org-2", name, members: [owner], pool: { limit: null, used: 0 }, brand: { name, logoUrl: null, accentColor: null }, subscriberId: owner.userId, requireMfa: false }
        return answer(organizationOf(world), 201)
      }
    ],
    [
      "PATCH /api/organizations/current",
      (request) => {
        const { name, accentColor, requireMfa } = request.body as { name?: string; accentColor?: string | null; requireMfa?: boolean }
        const organization = world.organization!
        if (requireMfa !== undefined) {
          // As the server: the owner alone, and to turn it on with two-step sign-in of their own.
          const me = organization.members.find((member) => member.email === world.me.email)!
          if (me.role !== "owner") return refuse(403, "FORBIDDEN", "Only the organisation's owner can do this.")
          if (requireMfa && !me.twoStep) return refuse(403, "MFA_ENROLLMENT_REQUIRED", "Turn on two-step sign-in for your own account first, on your dashboard.")
          organization.requireMfa = requireMfa
        }
        if (name !== undefined) organization.name = organization.brand.name = name
        if (accentColor !== undefined) organization.brand.accentColor = accentColor
        return answer(organizationOf(world))
      }
    ],
    [
      "PUT /api/organizations/current/logo",
      (request) => {
        const logo = (request.body as FormData).get("logo")
        if (!(logo instanceof Blob)) return refuse(400, "VALIDATION_FAILED", "Send the logo in the field logo.")
        world.organization!.brand.logoUrl = "/api/organizations/org-1/logo?v=2"
        return answer(organizationOf(world))
      }
    ],
    ["GET /api/organizations/current/invitations", () => answer(world.invitations)],
    ["GET /api/organizations/current/activity", () => (world.organization ? answer(world.activity) : NONE())],
    [
      "POST /api/organizations/current/invitations",
      (request) => {
        const { email, role } = request.body as { email: string; role: "admin" | "member" }
        if (members().some((member) => member.email === email)) return refuse(409, "ALREADY_IN_ORGANIZATION", `${email} is already in an organisation.`)
        const invitation: Invitation = { id: "00000000-0000-4000-8000-0000000000e2", email, role, expiresAt: "2030-01-09T00:00:00.000Z" }
        world.invitations.push(invitation)
        return answer(invitation, 201)
      }
    ],
    [
      `DELETE /api/organizations/current/invitations/${PENDING.id}`,
      () => {
        world.invitations = world.invitations.filter((invitation) => invitation.id !== PENDING.id)
        return answer({ revoked: true })
      }
    ],
    [
      "DELETE /api/organizations/current",
      () => {
        world.organization = null
        return answer({ deleted: true })
      }
    ],
    [
      "POST /api/organizations/current/transfer",
      (request) => {
        const { userId } = request.body as { userId: string }
        for (const member of members()) member.role = member.userId === userId ? "owner" : member.role === "owner" ? "admin" : member.role
        return answer(organizationOf(world))
      }
    ]
  ])
  /** A domain's own routes, as the server's (verify, remove), for each domain the world starts with or adds. */
  const serveDomain = (name: string) => {
    const find = () => world.domains?.find((domain) => domain.domain === name)
    const missing = () => refuse(404, "NOT_FOUND", `Your organisation has not added ${name}.`)
    server.on(`POST /api/organizations/current/domains/${name}/verify`, () => {
      const claim = find()
      if (role() !== "owner") return OWNER_ONLY()
      if (!claim) return missing()
      const values = world.dns?.[claim.record.name]
      if (!values) return refuse(400, "DOMAIN_NOT_VERIFIED", `No TXT record was found at ${claim.record.name}. Add it at your DNS provider; changes can take a few minutes to appear.`)
      if (!values.includes(claim.record.value)) return refuse(400, "DOMAIN_NOT_VERIFIED", `The TXT record at ${claim.record.name} does not hold ${claim.record.value}. Check its value at your DNS provider.`)
      Object.assign(claim, { verified: true, verifiedAt: claim.verifiedAt ?? VERIFIED_AT })
      return answer(claim)
    })
    server.on(`DELETE /api/organizations/current/domains/${name}`, () => {
      if (role() !== "owner") return OWNER_ONLY()
      if (!find()) return missing()
      world.domains = world.domains?.filter((domain) => domain.domain !== name)
      return answer({ removed: true })
    })
  }
  server.on("GET /api/organizations/current/domains", () => {
    if (!world.organization) return NONE()
    if (role() === "member") return refuse(403, "FORBIDDEN", "Only the organisation's owner and admins can see its domains.")
    return answer({ domains: world.domains ?? [] })
  })
  server.on("POST /api/organizations/current/domains", (request) => {
    if (role() !== "owner") return OWNER_ONLY()
    const parsed = addDomainRequestSchema.safeParse(request.body)
    if (!parsed.success) return refuse(400, "VALIDATION_FAILED", "Check the domain.")
    const { domain } = parsed.data
    const domains = (world.domains ??= [])
    if (domains.length >= MAX_ORGANIZATION_DOMAINS) return refuse(409, "TOO_MANY_DOMAINS", `An organisation can add up to ${MAX_ORGANIZATION_DOMAINS} domains. Remove one you no longer use first.`)
    if (domains.some((claim) => claim.domain === domain)) return refuse(409, "DOMAIN_ALREADY_ADDED", `${domain} is already one of your organisation's domains.`)
    const claim = claimOf(domain)
    domains.push(claim)
    serveDomain(domain)
    return answer(claim, 201)
  })
  for (const claim of world.domains ?? []) serveDomain(claim.domain)
  serveSso(server, world, role)
  serveScimTokens(server, world, role)
  serveWebhooks(server, world)

  for (const member of [ADA, GRACE, ALAN]) {
    server.on(`PATCH /api/organizations/current/members/${member.userId}`, (request) => {
      const found = members().find((candidate) => candidate.userId === member.userId)!
      found.role = (request.body as { role: "admin" | "member" }).role
      return answer(organizationOf(world))
    })
    server.on(`DELETE /api/organizations/current/members/${member.userId}`, () => {
      const organization = world.organization!
      organization.members = organization.members.filter((candidate) => candidate.userId !== member.userId)
      if (member.email === world.me.email) world.organization = null
      return answer({ removed: true })
    })
  }
  return server
}

/** The provider's settings: the owner saves (a client secret "wrong" fails the provider's check), tests and removes. */
function serveSso(server: ReturnType<typeof createFakeApi>, world: World, role: () => string | undefined) {
  const ownerOnly = () => refuse(403, "FORBIDDEN", "Only the organisation's owner can change its single sign-on.")
  const checked = (body: unknown) => {
    const input = body as SsoSettingsRequest
    return input.clientSecret === "wrong" ? null : input
  }
  const discoveryFailed = (input: SsoSettingsRequest) => refuse(400, "SSO_DISCOVERY_FAILED", `The provider's OpenID configuration could not be read from ${input.issuer}: invalid_client`)
  server.on("GET /api/organizations/current/sso", () => (role() === "member" ? refuse(403, "FORBIDDEN", "Only the organisation's owner and admins can see its single sign-on.") : answer(world.sso ?? NO_SSO)))
  server.on("POST /api/organizations/current/sso/test", (request) => {
    if (role() !== "owner") return ownerOnly()
    const input = checked(request.body)
    return input ? answer({ issuer: input.issuer, authorizationEndpoint: `${input.issuer}/authorize` }) : discoveryFailed(request.body as SsoSettingsRequest)
  })
  server.on("PUT /api/organizations/current/sso", (request) => {
    if (role() !== "owner") return ownerOnly()
    const input = checked(request.body)
    if (!input) return discoveryFailed(request.body as SsoSettingsRequest)
    world.sso = { configured: true, issuer: input.issuer, clientId: input.clientId, enforced: input.enforced, updatedAt: VERIFIED_AT }
    return answer(world.sso)
  })
  server.on("DELETE /api/organizations/current/sso", () => {
    if (role() !== "owner") return ownerOnly()
    world.sso = NO_SSO
    return answer(NO_SSO)
  })
}

/** The SCIM tokens: the owner creates (each named by its number) and revokes; owner and admins list. */
function serveScimTokens(server: ReturnType<typeof createFakeApi>, world: World, role: () => string | undefined) {
  const ownerOnly = () => refuse(403, "FORBIDDEN", "Only the organisation's owner can change its SCIM tokens.")
  const serveToken = (id: string) =>
    server.on(`DELETE /api/organizations/current/scim-tokens/${id}`, () => {
      if (role() !== "owner") return ownerOnly()
      world.scimTokens = (world.scimTokens ?? []).filter((token) => token.id !== id)
      return answer({ revoked: true })
    })
  server.on("GET /api/organizations/current/scim-tokens", () => (role() === "member" ? refuse(403, "FORBIDDEN", "Only the organisation's owner and admins can see its SCIM tokens.") : answer({ tokens: world.scimTokens ?? [] })))
  server.on("POST /api/organizations/current/scim-tokens", () => {
    if (role() !== "owner") return ownerOnly()
    const tokens = (world.scimTokens ??= [])
    const token: ScimToken = { id: `scim-${tokens.length + 1}`, createdAt: VERIFIED_AT, createdBy: world.me.email, lastUsedAt: null }
    tokens.push(token)
    serveToken(token.id)
    return answer({ ...token, token: `iqa_scim_secret-${tokens.length}` }, 201)
  })
  for (const token of world.scimTokens ?? []) serveToken(token.id)
}

/** The webhooks: added (secret "whsec_test-<n>"), tested (a webhook.test delivery, delivered at once) and removed. */
function serveWebhooks(server: ReturnType<typeof createFakeApi>, world: World) {
  const serveEndpoint = (id: string) => {
    server.on(`GET /api/webhooks/${id}/deliveries`, () => answer(world.deliveries?.[id] ?? []))
    server.on(`POST /api/webhooks/${id}/test`, () => {
      const delivery: WebhookDelivery = { id: `msg_${id}`, event: "webhook.test", status: "delivered", attempts: 1, lastStatusCode: 204, nextAttemptAt: null, createdAt: VERIFIED_AT, lastAttemptAt: VERIFIED_AT }
      ;(world.deliveries ??= {})[id] = [delivery, ...(world.deliveries[id] ?? [])]
      return answer({ deliveryId: delivery.id }, 201)
    })
    server.on(`DELETE /api/webhooks/${id}`, () => {
      world.webhooks = (world.webhooks ?? []).filter((endpoint) => endpoint.id !== id)
      return answer({ deleted: true })
    })
  }
  server.on("GET /api/webhooks", () => answer(world.webhooks ?? []))
  server.on("POST /api/webhooks", (request) => {
    const { url, events } = request.body as Pick<WebhookEndpoint, "url" | "events">
    if (!url.startsWith("https://")) return refuse(400, "URL_NOT_ALLOWED", "The address must start with https://.")
    const endpoints = (world.webhooks ??= [])
    const endpoint: WebhookEndpoint = { id: `hook-${endpoints.length + 1}`, url, events, owner: "organization", createdAt: VERIFIED_AT }
    endpoints.push(endpoint)
    serveEndpoint(endpoint.id)
    return answer({ ...endpoint, secret: `whsec_test-${endpoints.length}` }, 201)
  })
  for (const endpoint of world.webhooks ?? []) serveEndpoint(endpoint.id)
}

export type OrganizationServer = ReturnType<typeof createOrganizationServer>

/** Signs `me` in through storage, as a returning visitor, and opens the app at `path`. */
export function openAs(world: World, path = "/organization") {
  const server = createOrganizationServer(world)
  resetSiteForTest(server.fetch)
  const user: User = { name: world.me.name, email: world.me.email, role: "user", provider: "email" }
  window.localStorage.setItem(SESSION_STORAGE_KEYS.authToken, "access-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.refreshToken, "refresh-0")
  window.localStorage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(user))
  render(<SiteApp router="memory" initialPath={path} />)
  return server
}

/** The section of the page named `name` (each card is a region). */
export const region = (name: string) => screen.getByRole("region", { name })
