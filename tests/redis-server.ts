import { spawn } from "node:child_process"
import fs from "node:fs"
import net from "node:net"

import { freePort } from "./free-port"

/** Debian's redis-server (apt-get install -y redis-server), which CI installs. */
export const REDIS_SERVER = "/usr/bin/redis-server"

/** Why Redis cannot be tested here, or null. In CI its absence is an error, never a quiet skip. */
export function redisUnavailableReason(): string | null {
  if (fs.existsSync(REDIS_SERVER)) return null
  if (process.env.CI) throw new Error(`${REDIS_SERVER} is missing in CI: .ci/run installs redis-server`)
  return `${REDIS_SERVER} is not installed (apt-get install -y redis-server)`
}

/** A throw-away Redis on a free loopback port (or `port`: the same one again after a stop), without persistence. */
export async function startRedis(samePort?: number): Promise<{ url: string; port: number; pid: number; stop(): Promise<void> }> {
  const port = samePort ?? (await freePort())
  const child = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const deadline = Date.now() + 10_000
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end()
        resolve(true)
      })
      socket.once("error", () => resolve(false))
    })
    if (up) break
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL")
      throw new Error(`redis-server did not start on port ${port}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM")
      await exited
    }
  }
}
