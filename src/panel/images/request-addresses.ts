/**
 * Where the panel's own requests went, as Chrome reports them: chrome.webRequest (the "webRequest" permission, only
 * observing, never blocking) gives each hop of a request (its address, then each redirect's) with the IP address that
 * answered it. Chrome has no DNS API, so this is how the panel learns that a name such as intranet.test led to a
 * private address: after the answer's headers, before a byte of its body is used.
 *
 * A fetch does not tell its request id, so a read is matched to the requests this page made to its address after
 * the read began; two reads of one address at once share their hops (both are refused when either met a private
 * address, which is what both would meet). Firefox does not use this module: it resolves names first
 * (image-address.ts).
 */

export interface RequestHop {
  url: string
  /** The address that answered; undefined until it did, or when Chrome does not say (an answer from a cache). */
  ip?: string
}

interface Trace {
  order: number
  firstUrl: string
  hops: RequestHop[]
  done: boolean
  endedAt: number
}

/** A trace finished this long ago is forgotten: every read waits for its own well within it. */
const TRACE_KEPT_MS = 60_000

const traces = new Map<string, Trace>()
const waiting = new Set<() => void>()
let order = 0
let listening = false

/** The address without its fragment, as the request carries it and webRequest reports it. */
const requestUrl = (url: string) => url.replace(/#.*$/, "")

function changed() {
  for (const wake of [...waiting]) wake()
}

function forgetOld(now: number) {
  for (const [id, trace] of traces) if (trace.done && now - trace.endedAt > TRACE_KEPT_MS) traces.delete(id)
}

/** Whether this browser reports its requests' addresses (Chrome); Firefox has no such field in the panel's use. */
export function reportsRequestAddresses(): boolean {
  return typeof chrome !== "undefined" && Boolean(chrome.webRequest?.onResponseStarted)
}

function listen() {
  if (listening) return
  listening = true
  // Only this page's own reads: the page's origin is the initiator Chrome names for them.
  const filter: chrome.webRequest.RequestFilter = { urls: ["<all_urls>"], types: ["xmlhttprequest"] }
  const ours = (details: { initiator?: string }) => details.initiator === globalThis.location?.origin
  chrome.webRequest.onBeforeRequest.addListener((details) => {
    if (!ours(details)) return undefined
    forgetOld(Date.now())
    traces.set(details.requestId, { order: ++order, firstUrl: details.url, hops: [{ url: details.url }], done: false, endedAt: 0 })
    changed()
    // Only observing: the request goes on unchanged.
    return undefined
  }, filter)
  chrome.webRequest.onBeforeRedirect.addListener((details) => {
    const trace = traces.get(details.requestId)
    if (!trace) return
    trace.hops.at(-1)!.ip = details.ip
    trace.hops.push({ url: details.redirectUrl })
    changed()
  }, filter)
  const end = (details: { requestId: string; ip?: string }) => {
    const trace = traces.get(details.requestId)
    if (!trace || trace.done) return
    trace.hops.at(-1)!.ip ??= details.ip
    trace.done = true
    trace.endedAt = Date.now()
    changed()
  }
  chrome.webRequest.onResponseStarted.addListener(end, filter)
  chrome.webRequest.onErrorOccurred.addListener(end, filter)
}

export interface RequestWatch {
  /**
   * Every hop of this page's requests to the watched address since the watch began, once one of them has answered
   * from `finalUrl` (the answer's own address); null when none has within `timeoutMs`.
   */
  hops(finalUrl: string, timeoutMs: number): Promise<RequestHop[] | null>
}

/** Starts watching the requests to `url`; call before the request is made. */
export function watchRequests(url: string): RequestWatch {
  listen()
  const since = order
  const first = requestUrl(url)
  const mine = () => [...traces.values()].filter((trace) => trace.order > since && trace.firstUrl === first)
  return {
    hops(finalUrl, timeoutMs) {
      const last = requestUrl(finalUrl)
      const answers = (trace: Trace) => trace.done && trace.hops.at(-1)!.url === last
      const answered = () => mine().some(answers)
      // The answering requests' every hop (one without an address cannot be judged); of the others, the hops that met
      // an address (a read of the same image still under way, or given up).
      const hopsSeen = () => mine().flatMap((trace) => (answers(trace) ? trace.hops : trace.hops.filter((hop) => hop.ip)))
      return new Promise((resolve) => {
        const finish = () => {
          waiting.delete(check)
          clearTimeout(timer)
          resolve(answered() ? hopsSeen() : null)
        }
        const check = () => {
          if (answered()) finish()
        }
        const timer = setTimeout(finish, timeoutMs)
        waiting.add(check)
        check()
      })
    }
  }
}
