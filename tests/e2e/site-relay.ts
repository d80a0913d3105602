import fs from "node:fs"
import net from "node:net"
import path from "node:path"

import { EXTENSION_DIR } from "./browser"

/**
 * The site origin the built extension trusts on this computer, read from its manifest. A production build trusts one
 * only when PLASMO_PUBLIC_SITE_ORIGINS names it: `npm test` builds with `npm run build:local`, which names
 * http://localhost:8787; a plain `npm run build` trusts none.
 */
export function trustedLoopbackOrigin(): URL {
  const manifest = JSON.parse(fs.readFileSync(path.join(EXTENSION_DIR, "manifest.json"), "utf8")) as { externally_connectable?: { matches?: string[] } }
  const matches = manifest.externally_connectable?.matches ?? []
  const origin = matches.map((match) => new URL(match.replace(/\/\*$/, ""))).find((url) => url.protocol === "http:" && ["localhost", "127.0.0.1"].includes(url.hostname) && url.port)
  if (!origin) throw new Error(`The built extension trusts no loopback site origin with a port (${matches.join(", ")}): build it with npm run build:local (PLASMO_PUBLIC_SITE_ORIGINS=http://localhost:8787), as npm test does`)
  return origin
}

/**
 * The site must be reached at the trusted origin while startServer picks a free port: a plain TCP relay from that
 * port to the server gives the site that origin. For localhost it listens on both loopback addresses, since the
 * browser may try either. The e2e files run two at once and the trusted port is one: while another file's relay holds
 * it, this one waits for it (up to RELAY_WAIT_MS, under the e2e hook timeout), so the port is a lock between files.
 */
const RELAY_WAIT_MS = 100_000

export async function relay(from: URL, toPort: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const servers: net.Server[] = []
  const listen = (host: string) => {
    const server = net.createServer((client) => {
      const upstream = net.connect(toPort, "127.0.0.1")
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
        socket.on("error", () => socket.destroy())
      }
      client.pipe(upstream).pipe(client)
    })
    return new Promise<void>((resolve, reject) => {
      server.once("error", (error) => reject(Object.assign(new Error(`Port ${from.port} of ${host} is needed for the site's allowed origin: ${error.message}`), { code: (error as NodeJS.ErrnoException).code })))
      server.listen(Number(from.port), host, () => {
        servers.push(server)
        resolve()
      })
    })
  }
  for (const deadline = Date.now() + RELAY_WAIT_MS; ; ) {
    try {
      await listen("127.0.0.1")
      break
    } catch (error) {
      if ((error as { code?: string }).code !== "EADDRINUSE" || Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  // A machine without IPv6 loopback leaves the browser only 127.0.0.1 for localhost.
  if (from.hostname === "localhost") await listen("::1").catch(() => {})
  return {
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
    }
  }
}
