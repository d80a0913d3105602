/**
 * A hostile public page and the "intranet" it aims at, for tests/e2e/hostile-images.test.ts. Both listen on
 * 127.0.0.1; Chromium reaches them by names (HOST_RULES): the page as news.example, its frame as frames.example, the
 * intranet as intranet.test, a name that only the test browser's resolver maps to a private address, as a company's
 * DNS maps its intranet. The intranet records every request (its cookies, whether a page sent it) and, for the
 * oversized image, how many bytes it wrote before the connection closed.
 */
import http from "node:http"
import type net from "node:net"
import zlib from "node:zlib"

import { pngChunk, solidPng } from "./png"

export const PUBLIC_HOST = "news.example"
export const FRAME_HOST = "frames.example"
export const INTRANET_HOST = "intranet.test"
/** Chromium's resolver for the test: the three names on this computer, every other name unknown. */
export const HOST_RULES = `--host-resolver-rules=MAP ${PUBLIC_HOST} 127.0.0.1, MAP ${FRAME_HOST} 127.0.0.1, MAP ${INTRANET_HOST} 127.0.0.1`

/** What the oversized image answers the extension: far more than the 25 MB the extension may read. */
export const HUGE_BYTES = 200 * 1024 * 1024
/** What the decompression bomb's header declares: 10 000 megapixels (40 GB decoded), in a file of a few bytes. */
export const BOMB_SIDE = 100_000

export interface IntranetRequest {
  path: string
  cookie: string
  /** A page's request carries its address as Referer; the extension's carry none. */
  fromPage: boolean
}

export interface HugeAnswer {
  /** Bytes the kernel took from the server before the connection closed or the body ended. */
  written: number
  /** Whether the body was sent whole. */
  finished: boolean
}

const PICTURE = solidPng(640, 480, [40, 120, 200])

/** A PNG whose header declares BOMB_SIDE × BOMB_SIDE grey pixels, with one short row of data. */
function bombPng(): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(BOMB_SIDE, 0)
  header.writeUInt32BE(BOMB_SIDE, 4)
  header[8] = 8 // bit depth
  header[9] = 0 // grey
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", header), pngChunk("IDAT", zlib.deflateSync(Buffer.alloc(64))), pngChunk("IEND", Buffer.alloc(0))])
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return (server.address() as net.AddressInfo).port
}

const html = (response: http.ServerResponse, body: string, headers: http.OutgoingHttpHeaders = {}) =>
  response.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers }).end(`<!doctype html><html lang="en"><head><meta charset="utf-8">${body}</html>`)

/** Writes HUGE_BYTES of zeros as the connection takes them, stopping when it closes. */
function sendHuge(response: http.ServerResponse, answer: HugeAnswer) {
  const chunk = Buffer.alloc(64 * 1024)
  let queued = 0
  response.writeHead(200, { "content-type": "image/png" })
  response.on("close", () => (answer.finished = answer.written >= HUGE_BYTES))
  const pump = () => {
    while (queued < HUGE_BYTES && !response.destroyed) {
      queued += chunk.length
      const more = response.write(chunk, (error) => {
        if (!error) answer.written += chunk.length
      })
      if (!more) return void response.once("drain", pump)
    }
    if (!response.destroyed) response.end()
  }
  pump()
}

export async function startIntranet() {
  const requests: IntranetRequest[] = []
  const hugeAnswers: HugeAnswer[] = []
  const bomb = bombPng()
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://intranet")
    const fromPage = Boolean(request.headers.referer)
    requests.push({ path: `${url.pathname}${url.search}`, cookie: request.headers.cookie ?? "", fromPage })
    switch (url.pathname) {
      case "/login":
        // A session the person has on the intranet: the Strict one goes only with the intranet's own pages.
        return html(response, "<title>Intranet</title><p>Signed in", {
          "set-cookie": ["session=s3cret; Path=/; HttpOnly; SameSite=Strict", "team=blue; Path=/; SameSite=Lax"]
        })
      case "/":
        return html(
          response,
          `<title>Intranet home</title><body><h1>Intranet</h1>
          <img src="/secret.png?own" alt="Own picture" width="640" height="480">
          <img src="/huge.png" alt="Huge picture" width="640" height="480">
          <img src="/bomb.png" alt="Bomb picture" width="640" height="480">`
        )
      case "/secret.png":
        return response.writeHead(200, { "content-type": "image/png", "cache-control": "no-store" }).end(PICTURE)
      case "/huge.png":
      case "/bomb.png":
        // The page sees a plain picture, so that it lists it; the extension's own read gets the oversized one.
        if (fromPage) return response.writeHead(200, { "content-type": "image/png", "cache-control": "no-store" }).end(PICTURE)
        if (url.pathname === "/bomb.png") return response.writeHead(200, { "content-type": "image/png" }).end(bomb)
        hugeAnswers.push({ written: 0, finished: false })
        return sendHuge(response, hugeAnswers.at(-1)!)
      default:
        response.writeHead(404).end("not found")
    }
  })
  const port = await listen(server)
  return {
    port,
    origin: `http://${INTRANET_HOST}:${port}`,
    requests,
    hugeAnswers,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/**
 * The public page: the intranet's picture as an <img>, a srcset, a CSS background, inside a cross-origin frame and at
 * the intranet's bare address; and a picture of its own.
 */
export async function startPublicSite(intranetPort: number) {
  const secret = (variant: string) => `http://${INTRANET_HOST}:${intranetPort}/secret.png?${variant}`
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://public").pathname
    if (pathname === "/") {
      return html(
        response,
        `<title>Daily news</title><meta name="referrer" content="unsafe-url">
        <style>.bg{width:640px;height:480px;background:url(${secret("background")}) center/cover}</style>
        <body><h1>Daily news</h1>
        <img src="/own.png" alt="Own news picture" width="640" height="480">
        <img src="${secret("img")}" alt="Img" width="640" height="480">
        <img srcset="${secret("srcset")} 640w" sizes="640px" alt="Srcset">
        <div class="bg" title="Background"></div>
        <img src="http://127.0.0.1:${intranetPort}/secret.png?literal" alt="Bare address" width="640" height="480">
        <iframe src="http://${FRAME_HOST}:${port}/frame" width="700" height="520"></iframe>`
      )
    }
    if (pathname === "/frame") return html(response, `<title>Frame</title><meta name="referrer" content="unsafe-url"><body><img src="${secret("frame")}" alt="Framed" width="640" height="480">`)
    if (pathname === "/own.png") return response.writeHead(200, { "content-type": "image/png" }).end(solidPng(640, 480, [200, 160, 40]))
    response.writeHead(404).end("not found")
  })
  const port = await listen(server)
  return {
    url: `http://${PUBLIC_HOST}:${port}/`,
    secret,
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
