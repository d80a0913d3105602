/**
 * A real OpenID provider on loopback for the SSO tests: oidc-provider, the certified implementation, with one client
 * registered. The company's identity provider is outside our control, like Stripe; the product talks to it through
 * openid-client exactly as to Okta or Entra ID.
 *
 * Its log-in page signs in whoever the test named with signInAs (no form: the person's choice is not what is tested).
 * `tamper` rewrites the claims of the ID tokens its token endpoint answers and signs them again, with its own key or
 * with a stranger's, to show what the product does with an expired, foreign or forged token.
 */
import { createPrivateKey, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from "node:crypto"
import http from "node:http"
import type { AddressInfo } from "node:net"

import Provider, { type KoaContextWithOIDC } from "oidc-provider"
import { expect } from "vitest"

import type { DnsStandIn, TestApp } from "../../test-kit"
import { organizationTestKit } from "../organization-test-kit"

export interface TestAccount {
  sub: string
  email: string
  email_verified?: boolean
  name?: string
}
type Claims = Record<string, unknown>

export interface TestIdentityProvider {
  issuer: string
  clientId: string
  clientSecret: string
  /** Who the provider's log-in page signs in from now on. */
  signInAs(account: TestAccount): void
  /** Rewrites the claims of the ID tokens answered from now on (null: leaves them alone), signed again by `signer`. */
  tamper(change: ((claims: Claims) => Claims) | null, signer?: "provider" | "stranger"): void
  close(): Promise<void>
}

const rsaJwk = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" })
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** The JWT with its claims changed, signed RS256 with `key` under the provider's key id. */
function resign(jwt: string, change: (claims: Claims) => Claims, key: KeyObject): string {
  const [header, payload] = jwt.split(".")
  const claims = change(JSON.parse(Buffer.from(payload!, "base64url").toString()) as Claims)
  const signingInput = `${header}.${base64url(claims)}`
  return `${signingInput}.${sign("sha256", Buffer.from(signingInput), key).toString("base64url")}`
}

export async function startIdentityProvider(redirectUris: string[] = ["http://localhost:8787/api/auth/sso/callback"]): Promise<TestIdentityProvider> {
  let handler: http.RequestListener = (_request, response) => response.writeHead(503).end()
  const server = http.createServer((request, response) => handler(request, response))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = "image-query-ai"
  const clientSecret = "a-client-secret-of-the-company-provider"
  const signingJwk: JsonWebKey = { ...rsaJwk(), kid: "test-key", use: "sig", alg: "RS256" }
  const keys = { provider: createPrivateKey({ key: signingJwk, format: "jwk" }), stranger: createPrivateKey({ key: rsaJwk(), format: "jwk" }) }
  const accounts = new Map<string, TestAccount>()
  let current: TestAccount | null = null
  let tampering: { change: (claims: Claims) => Claims; key: KeyObject } | null = null

  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, response_types: ["code"], grant_types: ["authorization_code"], token_endpoint_auth_method: "client_secret_post" }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // ID tokens carry the claims asked for by scope, as most company providers issue them.
    conformIdTokenClaims: false,
    findAccount: (_context, sub) => {
      const account = accounts.get(sub)
      return account ? { accountId: sub, claims: () => ({ email_verified: true, ...account }) } : undefined
    },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    // Its own signing key, and no development log-in pages: what a provider in production has.
    jwks: { keys: [signingJwk] },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ["a-test-cookie-signing-key"] },
    // Quiet: the tests read answers, not the provider's console.
    renderError: (context, out) => {
      context.body = out
    }
  })

  // The log-in page: signs in the named account, then consents to what the client asked for.
  provider.use(async (context: KoaContextWithOIDC, next) => {
    if (!context.path.startsWith("/interaction/")) return next()
    const details = await provider.interactionDetails(context.req, context.res)
    if (!current) {
      context.status = 403
      context.body = "nobody signs in at this provider"
      return
    }
    accounts.set(current.sub, current)
    if (details.prompt.name === "login") {
      await provider.interactionFinished(context.req, context.res, { login: { accountId: current.sub } }, { mergeWithLastSubmission: false })
      return
    }
    const grant = new provider.Grant({ accountId: current.sub, clientId })
    grant.addOIDCScope(String(details.params.scope))
    await provider.interactionFinished(context.req, context.res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
  })
  provider.use(async (context: KoaContextWithOIDC, next) => {
    await next()
    const body = context.body as { id_token?: string } | undefined
    if (tampering && context.path === "/token" && body?.id_token) context.body = { ...body, id_token: resign(body.id_token, tampering.change, tampering.key) }
  })

  handler = provider.callback()
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (account) => {
      current = account
    },
    tamper: (change, signer = "provider") => {
      tampering = change ? { change, key: keys[signer] } : null
    },
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

/**
 * Follows the browser's way from the provider's authorization address (redirects, the provider's cookies) until it
 * is sent to `callbackPrefix`; answers that address. Throws where the provider stops instead.
 */
export async function throughProvider(redirectUrl: string, callbackPrefix = "http://localhost:8787/api/auth/sso/callback"): Promise<URL> {
  const cookies = new Map<string, string>()
  let url = redirectUrl
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(callbackPrefix)) return new URL(url)
    const response = await fetch(url, { redirect: "manual", headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") } })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";")
      const at = pair.indexOf("=")
      cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    const location = response.headers.get("location")
    if (!location) throw new Error(`the provider stopped at ${url} with ${response.status}: ${(await response.text()).slice(0, 300)}`)
    url = new URL(location, url).href
  }
  throw new Error("the provider redirected too many times")
}

let companies = 0

/**
 * What the SSO sign-in tests share, on the file's app, DNS stand-in and provider (read when a helper runs): an
 * organisation with a verified domain and the provider set up, and a person's way through the provider and back.
 */
export function ssoCompanyKit(parts: () => { subject: TestApp; dns: DnsStandIn; provider: TestIdentityProvider }) {
  const { person, call, organizationWith } = organizationTestKit(() => parts().subject)
  const post = (url: string, payload: object) => parts().subject.app.inject({ method: "POST", url, payload })

  /** An Enterprise organisation with a verified domain of its own and the provider set up. */
  async function companyWithSso(enforced = false) {
    const { dns, provider } = parts()
    const owner = await person("enterprise")
    const organization = await organizationWith(owner, `Company ${++companies}`)
    const domain = `company-${companies}-${Date.now()}.example`
    const claimed = await call("POST", "/api/organizations/current/domains", owner, { domain })
    dns.txt.set(`_image-query-ai.${domain}`, [claimed.body.data.record.value])
    expect((await call("POST", `/api/organizations/current/domains/${domain}/verify`, owner)).status).toBe(200)
    const sso = await call("PUT", "/api/organizations/current/sso", owner, { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret, enforced })
    expect(sso.status).toBe(200)
    return { owner, organization, domain }
  }

  /** Starts a sign-in for `email` and follows it through the provider: the callback address the browser is sent to. */
  async function startAndSignIn(email: string): Promise<URL> {
    const started = await post("/api/auth/sso/start", { email })
    expect(started.statusCode, started.body).toBe(200)
    return throughProvider(started.json().data.redirectUrl)
  }

  /** What the callback redirects the browser to, as the fragment's parameters. */
  async function callback(url: URL): Promise<URLSearchParams> {
    const answer = await parts().subject.app.inject({ method: "GET", url: url.pathname + url.search })
    expect(answer.statusCode).toBe(302)
    const location = new URL(answer.headers.location as string)
    expect(location.origin + location.pathname).toBe("http://localhost:8787/login/sso")
    return new URLSearchParams(location.hash.slice(1))
  }

  async function signInThroughSso(email: string, account: { sub?: string; email_verified?: boolean; name?: string } = {}) {
    parts().provider.signInAs({ sub: account.sub ?? email, email, email_verified: account.email_verified ?? true, name: account.name ?? "Ada Lovelace" })
    return callback(await startAndSignIn(email))
  }

  /** The session answer of a whole SSO sign-in of `email`. */
  async function ssoSession(email: string) {
    const completed = await post("/api/auth/sso/complete", { code: (await signInThroughSso(email)).get("code")! })
    expect(completed.statusCode, completed.body).toBe(200)
    return completed.json().data as { token: string; user: { id: string } }
  }

  return { companyWithSso, post, startAndSignIn, callback, signInThroughSso, ssoSession }
}
