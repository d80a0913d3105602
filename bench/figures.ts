// Helpers the benches share: medians and means, running a bench file on its own, and a loopback server for synthetic
// pages and their one image.
import fs from "node:fs"
import http from "node:http"
import type net from "node:net"
import path from "node:path"
import { pathToFileURL } from "node:url"

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

/**
 * Runs `measure` and prints its lines when the file at `moduleUrl` is the one node was started with
 * (`node --import tsx bench/<name>.ts`); npm run bench imports the same file and calls its measure itself.
 */
export function runIfMain(moduleUrl: string, name: string, measure: () => Promise<{ lines: string[] }>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return
  measure().then(
    ({ lines }) => console.log(lines.join("\n")),
    (error: unknown) => {
      console.error(`The ${name} bench failed:`, error instanceof Error ? error.message : error)
      process.exitCode = 1
    }
  )
}

/**
 * Serves `pages` (path -> HTML) and one PNG file at `imagePath`, cached by the browser, on 127.0.0.1:
 * the synthetic pages of the page-scan and on-image button benches.
 */
export async function servePages(pages: ReadonlyMap<string, string>, imagePath: string, imageFile: string): Promise<{ url: string; close(): Promise<void> }> {
  const png = fs.readFileSync(imageFile)
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? "/", "http://bench").pathname
    if (pathname === imagePath) {
      response.writeHead(200, { "content-type": "image/png", "cache-control": "max-age=3600" }).end(png)
      return
    }
    const html = pages.get(pathname)
    if (html) response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html)
    else response.writeHead(404).end()
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** A browser module of ours bundled as one script for page.addScriptTag, exposing its exports as `globalName`. */
export async function bundleForPage(entry: string, globalName: string, root: string): Promise<string> {
  const { build } = await import("esbuild")
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    write: false,
    format: "iife",
    globalName,
    target: "chrome120",
    alias: { "~core": path.join(root, "src/core") },
    // As a production `plasmo build` inlines them (unset here: the built-in defaults apply).
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      "process.env.PLASMO_PUBLIC_API_URL": "undefined",
      "process.env.PLASMO_PUBLIC_SITE_ORIGINS": "undefined"
    },
    logLevel: "silent"
  })
  return result.outputFiles[0]!.text
}
