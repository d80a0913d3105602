/**
 * A real OpenID provider on loopback for the SSO tests: oidc-provider, the certified implementation, with one client
 * registered. The company's identity provider is outside our control, like Stripe; the product talks to it through
 * openid-client exactly as to Okta or Entra ID.
 */
import { generateKeyPairSync } from "node:crypto"
import http from "node:http"
import type { AddressInfo } from "node:net"

import Provider from "oidc-provider"

export interface TestIdentityProvider {
  issuer: string
  clientId: string
  clientSecret: string
  close(): Promise<void>
}

export async function startIdentityProvider(redirectUris: string[] = ["http://localhost:8787/api/auth/sso/callback"]): Promise<TestIdentityProvider> {
  let handler: http.RequestListener = (_request, response) => response.writeHead(503).end()
  const server = http.createServer((request, response) => handler(request, response))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = "image-query-ai"
  const clientSecret = "a-client-secret-of-the-company-provider"
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, response_types: ["code"], grant_types: ["authorization_code"], token_endpoint_auth_method: "client_secret_post" }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Its own signing key, and no development log-in pages: what a provider in production has.
    jwks: { keys: [{ ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), kid: "test-key", use: "sig", alg: "RS256" }] },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ["a-test-cookie-signing-key"] },
    // Quiet: the tests read answers, not the provider's console.
    renderError: (context, out) => {
      context.body = out
    }
  })
  handler = provider.callback()
  return { issuer, clientId, clientSecret, close: () => new Promise((resolve) => server.close(() => resolve())) }
}
