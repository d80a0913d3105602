/**
 * An organisation's OpenID Connect provider, reached with openid-client: its issuer checked first (https on public
 * addresses only; http on this machine too with SSO_ALLOW_INSECURE_ISSUER, for development and tests), then its
 * discovery document read and checked by the library. A provider that fails either is refused in words.
 *
 * Every later request the library makes (the token endpoint, the keys) goes through the same address check, because
 * the discovery document names those addresses and an owner's provider must not make this server call its own
 * network. The check resolves the host before each request; the connection itself is not pinned to the checked address.
 */
import dns from "node:dns/promises"
import net from "node:net"

import * as client from "openid-client"

import { classifyAddress } from "~core/network-address"

import { ApiError } from "../../http/errors"

const refused = (message: string) => new ApiError(400, "SSO_ISSUER_NOT_ALLOWED", message)

/** Throws unless every address of the URL's host is public (or loopback, where insecure issuers are allowed). */
async function checkProviderAddress(issuer: URL, allowInsecure: boolean): Promise<void> {
  if (issuer.protocol !== "https:" && !(allowInsecure && issuer.protocol === "http:")) throw refused("The issuer must be an https:// address.")
  if (issuer.username || issuer.password) throw refused("The issuer must not contain a user name or password.")
  const host = issuer.hostname.replace(/^\[(.*)\]$/, "$1")
  let addresses: string[]
  try {
    addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)
  } catch {
    throw new ApiError(400, "SSO_DISCOVERY_FAILED", `The issuer's host ${host} could not be found.`)
  }
  const acceptable = (address: string) => classifyAddress(address) === "public" || (allowInsecure && classifyAddress(address) === "loopback")
  if (addresses.length === 0 || !addresses.every(acceptable)) throw refused("The issuer must be on a public address, not on a private or local network.")
}

/** The provider's configuration for this client, from its discovery document; 400 SSO_DISCOVERY_FAILED with the reason. */
export async function discoverProvider(settings: { issuer: string; clientId: string; clientSecret: string }, allowInsecure: boolean): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer)
  await checkProviderAddress(issuer, allowInsecure)
  const checkedFetch: client.CustomFetch = async (url, options) => {
    await checkProviderAddress(new URL(url), allowInsecure)
    return fetch(url, { ...options, redirect: "manual" } as RequestInit)
  }
  try {
    const configuration = await client.discovery(issuer, settings.clientId, settings.clientSecret, client.ClientSecretPost(settings.clientSecret), {
      execute: allowInsecure && issuer.protocol === "http:" ? [client.allowInsecureRequests] : [],
      timeout: 10,
      [client.customFetch]: checkedFetch
    })
    configuration[client.customFetch] = checkedFetch
    // The addresses the document names are checked now, so that settings that would send the server elsewhere are
    // refused when saved, not at someone's sign-in.
    const metadata = configuration.serverMetadata()
    for (const endpoint of [metadata.token_endpoint, metadata.jwks_uri]) {
      if (!endpoint) throw new ApiError(400, "SSO_DISCOVERY_FAILED", "The provider's OpenID configuration names no token endpoint or keys.")
      await checkProviderAddress(new URL(endpoint), allowInsecure)
    }
    // The ID token's signature is checked against the provider's published keys, not only trusted for coming over TLS.
    client.enableNonRepudiationChecks(configuration)
    return configuration
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw new ApiError(400, "SSO_DISCOVERY_FAILED", `The provider's OpenID configuration could not be read from ${settings.issuer}: ${(error as Error).message}`)
  }
}
