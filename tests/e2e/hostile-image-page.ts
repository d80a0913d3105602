/**
 * A page that tries to steer the on-image button (issue 42, part 2), and an "intranet" server that remembers what it
 * is asked for and by whom, for the Chromium and Firefox tests of the button on a hostile page. The page's own loads
 * carry its origin as Referer; the extension's pages are not the page's origin, so what else the intranet is asked
 * for comes from the extension.
 */
import fs from "node:fs"
import http from "node:http"
import type net from "node:net"
import path from "node:path"

const PHOTO = fs.readFileSync(path.resolve("tests/fixtures/square-512.png"))

export interface CountingServer {
  url: string
  /** The requests, in order: the path and the Referer. */
  requests: { path: string; referer: string | undefined }[]
  close(): Promise<void>
}

/** An HTTP server on 127.0.0.1 answering `routes` (path to type and body) and remembering every request. */
async function countingServer(routes: Record<string, { type: string; body: string | Buffer }>): Promise<CountingServer> {
  const requests: CountingServer["requests"] = []
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://server").pathname
    requests.push({ path: pathname, referer: request.headers.referer })
    const route = routes[pathname]
    if (!route) response.writeHead(404).end("not found")
    else response.writeHead(200, { "content-type": route.type, "cache-control": "no-store" }).end(route.body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

const HOSTILE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Claim your prize</title>
<style>body { margin: 0; padding: 24px; font: 16px sans-serif; }</style>
</head><body>
<h1>Claim your prize</h1>
<img id="photo" src="/photo.png" alt="A prize" width="480" height="360">
</body></html>`

export interface HostileImagePage {
  site: CountingServer
  intranet: CountingServer
  /** What the intranet was asked for by anything but the page itself: the extension. */
  intranetRequestsNotFromPage(): string[]
  close(): Promise<void>
}

/** The hostile site (its page at `/`, the photo #photo at /photo.png) and the intranet server (/secret.png). */
export async function serveHostileImagePage(): Promise<HostileImagePage> {
  const intranet = await countingServer({ "/secret.png": { type: "image/png", body: PHOTO } })
  const site = await countingServer({
    "/": { type: "text/html; charset=utf-8", body: HOSTILE_PAGE },
    "/photo.png": { type: "image/png", body: PHOTO },
    "/favicon.ico": { type: "image/png", body: PHOTO }
  })
  return {
    site,
    intranet,
    intranetRequestsNotFromPage: () => intranet.requests.filter(({ referer }) => !referer?.startsWith(`${site.url}/`)).map(({ path }) => path),
    close: async () => void (await Promise.all([site.close(), intranet.close()]))
  }
}

export type DecoyPlace = "document" | "closed shadow root"

/**
 * Run in the page: the decoy a page draws over the button, a transparent top-layer popover over the whole viewport
 * that lets clicks through, with a "Claim prize" button painted over `box` (where ours is). `where` says where it
 * lives; `hideOnPress` takes it away in a capturing pointerdown, which runs before our button sees the press.
 */
export function drawDecoy(box: { x: number; y: number; width: number; height: number }, where: DecoyPlace, hideOnPress: boolean): void {
  const layer = document.createElement("div")
  layer.setAttribute("popover", "manual")
  layer.style.cssText = "position: fixed; inset: 0; width: 100vw; height: 100vh; margin: 0; padding: 0; border: 0; background: transparent; pointer-events: none"
  const prize = document.createElement("div")
  prize.textContent = "Claim prize"
  prize.style.cssText = `position: absolute; left: ${box.x - 6}px; top: ${box.y - 6}px; width: ${box.width + 12}px; height: ${box.height + 12}px; display: grid; place-items: center; background: #16A34A; color: white; font: bold 15px sans-serif; border-radius: 8px`
  layer.append(prize)
  if (where === "document") document.body.append(layer)
  else {
    const host = document.createElement("prize-banner")
    host.attachShadow({ mode: "closed" }).append(layer)
    document.body.append(host)
  }
  layer.showPopover()
  if (hideOnPress) window.addEventListener("pointerdown", () => layer.hidePopover(), true)
}

/** Run in the page: a capturing pointerdown that points #photo at `address` as the button is pressed. */
export function swapPhotoOnPress(address: string): void {
  window.addEventListener("pointerdown", () => ((document.getElementById("photo") as HTMLImageElement).src = address), true)
}

/** The decoys each browser's test draws: [what it is, where it lives, taken away at the press]. */
export const DECOYS: readonly (readonly [string, DecoyPlace, boolean])[] = [
  ["a top-layer popover in the page", "document", false],
  ["a top-layer popover in a closed shadow root", "closed shadow root", false],
  ["a top-layer popover the page takes away as the button is pressed", "document", true]
]
