import { afterEach, beforeAll, describe, expect, it, vi } from "vitest"

import { fakeEvent } from "~extension/browser/fake-chrome.test-support"

import { ADDRESS_REFUSED_MESSAGE, ADDRESS_UNCHECKED_MESSAGE } from "./image-address"
import { IMAGE_SIZE_UNREADABLE_MESSAGE, IMAGE_TOO_LARGE_MESSAGE, MAX_ANALYSED_IMAGE_BYTES, readImage, toRasterBlob } from "./image-bytes"

/** A PNG's signature and header declaring width × height, and a little data: enough for the size check. */
function pngHeader(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(64)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
  new DataView(bytes.buffer).setUint32(16, width)
  new DataView(bytes.buffer).setUint32(20, height)
  return bytes
}
const PICTURE = pngHeader(640, 480)

const webRequest = {
  onBeforeRequest: fakeEvent(),
  onBeforeRedirect: fakeEvent(),
  onResponseStarted: fakeEvent(),
  onErrorOccurred: fakeEvent()
}
let tabUrl = "https://news.example/"
let requestId = 0

beforeAll(() => {
  // One Chrome for the file: the panel listens to webRequest once, on its first read.
  vi.stubGlobal("chrome", { webRequest, tabs: { get: async () => ({ id: 7, url: tabUrl }) } })
})

afterEach(() => {
  tabUrl = "https://news.example/"
  vi.unstubAllGlobals()
  vi.stubGlobal("chrome", { webRequest, tabs: { get: async () => ({ id: 7, url: tabUrl }) } })
})

/**
 * A fetch that answers `body`, as Chrome reports it: each of `hops` ({url, ip}: the address, then each redirect's)
 * through webRequest, the reports arriving just after the answer when `late`.
 */
function server(body: BodyInit | null, { hops, headers = {}, late = false }: { hops?: { url?: string; ip?: string }[]; headers?: Record<string, string>; late?: boolean } = {}) {
  const calls: { url: string; init: RequestInit | undefined }[] = []
  const fetchImpl = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input)
    calls.push({ url, init })
    const id = String(++requestId)
    const route = (hops ?? [{ ip: "93.184.216.34" }]).map((hop) => ({ url: hop.url ?? url, ip: hop.ip }))
    const report = () => {
      const initiator = location.origin
      webRequest.onBeforeRequest.fire({ requestId: id, url: route[0]!.url, initiator })
      route.slice(1).forEach((hop, index) => webRequest.onBeforeRedirect.fire({ requestId: id, url: route[index]!.url, ip: route[index]!.ip, redirectUrl: hop.url, initiator }))
      webRequest.onResponseStarted.fire({ requestId: id, url: route.at(-1)!.url, ip: route.at(-1)!.ip, initiator })
    }
    if (late) setTimeout(report, 20)
    else report()
    const response = new Response(body, { headers: { "content-type": "image/png", ...headers } })
    Object.defineProperty(response, "url", { value: route.at(-1)!.url })
    return response
  })
  return { fetchImpl: fetchImpl as unknown as typeof fetch, calls }
}

describe("reading a page's image", () => {
  it("sends no cookie, Referer or cached copy with it", async () => {
    const { fetchImpl, calls } = server(PICTURE)
    const blob = await readImage({ url: "https://cdn.example/a.png", tabId: 7 }, fetchImpl)
    expect(blob.size).toBe(PICTURE.length)
    expect(blob.type).toBe("image/png")
    expect(calls[0]!.init).toMatchObject({ credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer" })
  })

  it("refuses an address on a private network named by a public page, before any request", async () => {
    for (const url of ["http://192.168.1.1/cam.jpg", "http://10.0.0.5/a.png", "http://[::1]:8080/a.png", "http://intranet/a.png", "http://printer.local/a.png", "http://localhost:3000/a.png", "http://0x7f.1/a.png"]) {
      const { fetchImpl } = server(PICTURE)
      await expect(readImage({ url, tabId: 7 }, fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
      expect(fetchImpl).not.toHaveBeenCalled()
    }
    // A page whose tab has moved on to a public page: the public one decides.
    const { fetchImpl } = server(PICTURE)
    await expect(readImage({ url: "http://10.0.0.5/a.png", tabId: 7, pageUrl: "http://10.0.0.1/" }, fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
    // No page known: judged as a public page's.
    await expect(readImage({ url: "http://10.0.0.5/a.png", pageUrl: "not a page" }, fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
  })

  it("lets a page on a private network use its network, and any page its own origin", async () => {
    tabUrl = "http://intranet/wiki"
    const fromIntranet = server(PICTURE, { hops: [{ ip: "10.0.0.5" }] })
    await expect(readImage({ url: "http://10.0.0.5/a.png", tabId: 7 }, fromIntranet.fetchImpl)).resolves.toBeInstanceOf(Blob)
    tabUrl = "https://news.example/today"
    // Its own origin answering from a private address (its name led there): the page could read it itself anyway.
    const own = server(PICTURE, { hops: [{ ip: "10.0.0.9" }] })
    await expect(readImage({ url: "https://news.example/own.png", tabId: 7 }, own.fetchImpl)).resolves.toBeInstanceOf(Blob)
  })

  it("discards, in Chrome, an answer that came from a private address, on any hop, reported before or after the answer", async () => {
    for (const late of [false, true]) {
      const intranet = server(PICTURE, { hops: [{ ip: "10.1.2.3" }], late })
      await expect(readImage({ url: "https://intranet.example.com/a.png", tabId: 7 }, intranet.fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
      const loopback = server(PICTURE, { hops: [{ ip: "::ffff:127.0.0.1" }], late })
      await expect(readImage({ url: "https://intranet.example.com/b.png", tabId: 7 }, loopback.fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
      const publicOne = server(PICTURE, { hops: [{ ip: "2606:4700:4700::1111" }], late })
      await expect(readImage({ url: "https://cdn.example/c.png", tabId: 7 }, publicOne.fetchImpl)).resolves.toBeInstanceOf(Blob)
    }
    // A public address redirecting into the intranet, by name or by an address DNS gave.
    const byName = server(PICTURE, { hops: [{ ip: "93.184.216.34" }, { url: "http://router.lan/admin.png", ip: "93.184.216.34" }] })
    await expect(readImage({ url: "https://cdn.example/d.png", tabId: 7 }, byName.fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
    const byAddress = server(PICTURE, { hops: [{ ip: "93.184.216.34" }, { url: "https://files.example/e.png", ip: "172.16.4.4" }] })
    await expect(readImage({ url: "https://cdn.example/e.png", tabId: 7 }, byAddress.fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
    // An answer whose address Chrome does not tell cannot be judged.
    const unknown = server(PICTURE, { hops: [{}] })
    await expect(readImage({ url: "https://cdn.example/f.png", tabId: 7 }, unknown.fetchImpl)).rejects.toThrow(ADDRESS_UNCHECKED_MESSAGE)
  })

  it("resolves the name first in Firefox, and sends nothing when it leads to a private address", async () => {
    const addresses: Record<string, string[]> = { "intranet.example.com": ["93.184.216.34", "10.0.0.8"], "cdn.example": ["93.184.216.34"], "files.example": ["192.168.7.7"] }
    vi.stubGlobal("browser", { dns: { resolve: async (host: string) => ({ addresses: addresses[host] ?? [] }) } })
    const refused = server(PICTURE)
    await expect(readImage({ url: "https://intranet.example.com/a.png", tabId: 7 }, refused.fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
    expect(refused.fetchImpl).not.toHaveBeenCalled()
    // Firefox reports no address: the answer is judged by where it ended, resolved in turn.
    const fine = server(PICTURE, { hops: [{}] })
    await expect(readImage({ url: "https://cdn.example/a.png", tabId: 7 }, fine.fetchImpl)).resolves.toBeInstanceOf(Blob)
    const redirected = server(PICTURE, { hops: [{}, { url: "https://files.example/b.png" }] })
    await expect(readImage({ url: "https://cdn.example/b.png", tabId: 7 }, redirected.fetchImpl)).rejects.toThrow(ADDRESS_REFUSED_MESSAGE)
  })

  it("reads at most 25 MB of a body, then cancels it and aborts the request", async () => {
    let pulled = 0
    let cancelled = false
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1
        controller.enqueue(new Uint8Array(1024 * 1024))
      },
      cancel() {
        cancelled = true
      }
    })
    const { fetchImpl, calls } = server(endless)
    await expect(readImage({ url: "https://cdn.example/huge.png", tabId: 7 }, fetchImpl)).rejects.toThrow(IMAGE_TOO_LARGE_MESSAGE)
    expect(pulled).toBeLessThanOrEqual(MAX_ANALYSED_IMAGE_BYTES / (1024 * 1024) + 2)
    expect(cancelled).toBe(true)
    expect(calls[0]!.init!.signal!.aborted).toBe(true)

    // A declared length over the limit: not a byte is read.
    pulled = 0
    const declared = server(new ReadableStream({ pull: (controller) => void (pulled++, controller.enqueue(new Uint8Array(10))) }), { headers: { "content-length": String(200 * 1024 * 1024) } })
    await expect(readImage({ url: "https://cdn.example/declared.png", tabId: 7 }, declared.fetchImpl)).rejects.toThrow(IMAGE_TOO_LARGE_MESSAGE)
    expect(pulled).toBeLessThanOrEqual(1)
  })

  it("refuses before decoding a picture whose header declares too many pixels, or cannot be read", async () => {
    const bomb = server(pngHeader(100_000, 100_000))
    await expect(readImage({ url: "https://cdn.example/bomb.png", tabId: 7 }, bomb.fetchImpl)).rejects.toThrow("The image is too large to open: 100,000 × 100,000 pixels")
    const justOver = server(pngHeader(10_000, 5_001))
    await expect(readImage({ url: "https://cdn.example/over.png", tabId: 7 }, justOver.fetchImpl)).rejects.toThrow("10,000 × 5,001 pixels")
    const atTheLimit = server(pngHeader(10_000, 5_000))
    await expect(readImage({ url: "https://cdn.example/limit.png", tabId: 7 }, atTheLimit.fetchImpl)).resolves.toBeInstanceOf(Blob)
    const cut = server(PICTURE.slice(0, 12))
    await expect(readImage({ url: "https://cdn.example/cut.png", tabId: 7 }, cut.fetchImpl)).rejects.toThrow(IMAGE_SIZE_UNREADABLE_MESSAGE)
    // SVG is drawn at the size the panel asks: whatever it declares is no decoding cost.
    const svg = server('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>', { headers: { "content-type": "image/svg+xml" } })
    await expect(readImage({ url: "https://cdn.example/a.svg", tabId: 7 }, svg.fetchImpl)).resolves.toBeInstanceOf(Blob)
    // A data: address of the page is read the same way (no network, the same size checks).
    await expect(readImage({ url: "data:image/png;base64,AAAA", tabId: 7 }, bomb.fetchImpl)).rejects.toThrow("100,000 × 100,000 pixels")
  })
})

describe("the bytes the local engines read", () => {
  // tesseract.js reads a JPEG's bytes differently from a canvas's pixels of it, and small print beside a photo is
  // lost on such differences (issue 47: bench/ocr-small-print.ts): the engines get what the page served.
  it.each(["image/jpeg", "image/png", "image/gif", "image/webp", "image/bmp"])("hands a %s on as it was read, not redrawn", async (type) => {
    const blob = new Blob([PICTURE], { type })
    expect(await toRasterBlob(blob)).toBe(blob)
  })
})
