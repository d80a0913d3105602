/**
 * Which addresses a page may make the extension load. The panel reads a page's images itself (image-bytes.ts), with
 * the extension's host permissions, which pass the browser's SameSite, CORS and local-network checks: a public page
 * naming http://intranet/… or http://192.168.1.1/… would have the extension reach the person's own network for it.
 * So an image on a private network (a non-public IP address, by the ranges of ~core/network-address, or a name that only
 * a local network resolves: localhost, `intranet`, *.local, *.internal, *.lan, *.home.arpa, *.corp…) is refused
 * unless the page that named it is itself on a private network by its address's name, or the image is on the page's
 * own origin (the page can read its own origin anyway). Requests never carry the person's cookies either way
 * (`credentials: "omit"` in image-bytes.ts).
 *
 * The page is the tab's page (its address now, and the one the panel listed the image from): a frame of another
 * origin inside a public page is judged by the public page. It is judged by its name, never by the address its name
 * led to: on the test machine, as behind a proxy, a public page's name answers from a private address too.
 *
 * A name that DNS turns into a private address (intranet.test → 10.0.0.5) is found per browser:
 * - Firefox resolves the name first (`browser.dns.resolve`, the "dns" permission) and sends nothing when any of its
 *   addresses is private; the address an answer was finally served from (after redirects) is resolved and checked too.
 *   Limits: an intermediate redirect is not seen (only where the chain ends), and DNS may answer the request itself
 *   otherwise than the check (rebinding) within its cache's life.
 * - Chrome has no DNS API: the panel learns the address that answered each hop of its request from chrome.webRequest
 *   (request-addresses.ts) and discards the answer, unread, when any hop not on the page's origin came from a private
 *   address. Limits: the request has been sent by then (without cookies, with no Referer); behind a proxy Chrome reports
 *   the proxy's address, so a proxy on a private address makes every such image refused (use it from a page on the
 *   private network, or paste the image); an answer whose address cannot be known is refused.
 * A name that is neither (a browser with no way to check) is refused.
 */
import { classifyAddress, hostNetwork } from "~core/network-address"

import { reportsRequestAddresses, watchRequests } from "./request-addresses"

export const ADDRESS_REFUSED_MESSAGE = "Not loaded: a public page cannot make the extension open an address on your private network."
export const ADDRESS_UNCHECKED_MESSAGE = "Not loaded: the address this image came from could not be checked. Try again."

/** How long the panel waits for Chrome to report where an answer came from, once the answer is there. */
const ADDRESS_REPORT_TIMEOUT_MS = 5_000

interface FirefoxDns {
  resolve(hostname: string): Promise<{ addresses: string[] }>
}

function firefoxDns(): FirefoxDns | undefined {
  return (globalThis as { browser?: { dns?: FirefoxDns } }).browser?.dns
}

/** Whether a page is on a private network by its address's name (then it may have the panel load any address). */
function isPrivatePage(page: URL): boolean {
  return (page.protocol === "http:" || page.protocol === "https:") && hostNetwork(page.hostname) === "private"
}

/** Whether `page` lets the panel load `url` wherever it is: its own origin, or any address for a page on a private network. */
export function pagePermits(page: string, url: URL): boolean {
  const pageUrl = URL.parse(page)
  return pageUrl !== null && (isPrivatePage(pageUrl) || (pageUrl.protocol.startsWith("http") && pageUrl.origin === url.origin))
}

const isPublicAddress = (ip: string | undefined) => ip !== undefined && classifyAddress(ip) === "public"

/** Firefox: whether every address the name resolves to is public (a name that does not resolve is left to the request). */
async function resolvesPublic(dns: FirefoxDns, hostname: string): Promise<boolean> {
  const answer = await dns.resolve(hostname).catch(() => null)
  return !answer || answer.addresses.every(isPublicAddress)
}

export interface ImageRequestGuard {
  /** After the answer's headers, before its body: why it must be discarded, or null. */
  checkAnswer(response: Response): Promise<string | null>
}

const NO_CHECK: ImageRequestGuard = { checkAnswer: async () => null }

/** Firefox: the name resolved before the request; where the answer came from, if elsewhere, after it. */
async function firefoxGuard(dns: FirefoxDns, url: URL, allowed: (target: URL) => boolean): Promise<{ refused: string } | { guard: ImageRequestGuard }> {
  const unsafe = async (target: URL) => {
    const network = hostNetwork(target.hostname)
    return network === "private" || (network === "name" && !(await resolvesPublic(dns, target.hostname)))
  }
  if (!allowed(url) && (await unsafe(url))) return { refused: ADDRESS_REFUSED_MESSAGE }
  return {
    guard: {
      async checkAnswer(response) {
        const final = URL.parse(response.url)
        if (!final || final.hostname === url.hostname || allowed(final)) return null
        return (await unsafe(final)) ? ADDRESS_REFUSED_MESSAGE : null
      }
    }
  }
}

/** Chrome: each hop of the request judged by the address that answered it. */
function chromeGuard(url: URL, allowed: (target: URL) => boolean): { guard: ImageRequestGuard } {
  const watch = watchRequests(url.href)
  return {
    guard: {
      async checkAnswer(response) {
        const hops = await watch.hops(response.url || url.href, ADDRESS_REPORT_TIMEOUT_MS)
        if (!hops) return ADDRESS_UNCHECKED_MESSAGE
        for (const hop of hops) {
          const target = new URL(hop.url)
          if (allowed(target)) continue
          if (hostNetwork(target.hostname) === "private") return ADDRESS_REFUSED_MESSAGE
          if (hop.ip === undefined) return ADDRESS_UNCHECKED_MESSAGE
          if (!isPublicAddress(hop.ip)) return ADDRESS_REFUSED_MESSAGE
        }
        return null
      }
    }
  }
}

/**
 * Before the panel requests `url` for the pages that named it (the tab's page; with none known it is judged as a
 * public page's): why not (a message in plain words), or the check its answer must pass before its body is read.
 */
export async function guardImageRequest(url: URL, pages: readonly string[]): Promise<{ refused: string } | { guard: ImageRequestGuard }> {
  const parsed = pages.map((page) => URL.parse(page))
  if (parsed.length > 0 && parsed.every((page) => page !== null && isPrivatePage(page))) return { guard: NO_CHECK }
  const allowed = (target: URL) => pages.length > 0 && pages.every((page) => pagePermits(page, target))
  if (hostNetwork(url.hostname) === "private" && !allowed(url)) return { refused: ADDRESS_REFUSED_MESSAGE }
  const dns = firefoxDns()
  if (dns) return firefoxGuard(dns, url, allowed)
  if (reportsRequestAddresses()) return chromeGuard(url, allowed)
  return hostNetwork(url.hostname) === "name" && !allowed(url) ? { refused: ADDRESS_UNCHECKED_MESSAGE } : { guard: NO_CHECK }
}
