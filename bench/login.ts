import { verify, hash } from "@node-rs/argon2"
import { performance } from "node:perf_hooks"

import { measureLoad, type LoadFigures, type LoadSettings } from "./load"
import { startServer } from "./server-process"

const ACCOUNT = { email: "bench-admin@example.com", password: "Granite-Orbit-2026!" }

export interface LoginFigures {
  login: LoadFigures
  /** argon2id verifications per second in this process, with the server's parameters and as many in flight as the load's connections. */
  rawVerifiesPerSecond: number
  /** Login throughput over raw verification throughput: near 1 means the server adds little to the hash. */
  ratio: number
}

/** Raw argon2id verify throughput: the library's default parameters, which the server uses too. */
async function measureRawVerifies(seconds: number, concurrency: number): Promise<number> {
  const passwordHash = await hash(ACCOUNT.password)
  let completed = 0
  const deadline = performance.now() + seconds * 1000
  const worker = async () => {
    while (performance.now() < deadline) {
      await verify(passwordHash, ACCOUNT.password)
      completed++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return completed / ((performance.now() - started) / 1000)
}

/**
 * Successful sign-ins per second against a server started as npm start does, with an admin account
 * from ADMIN_EMAIL; each request comes "from" its own client address, so per-IP limits do not apply.
 */
export async function measureLogin(dataDir: string, load: LoadSettings): Promise<LoginFigures> {
  const rawVerifiesPerSecond = await measureRawVerifies(load.durationSeconds, load.connections)
  const server = await startServer(dataDir, { ADMIN_EMAIL: ACCOUNT.email, ADMIN_PASSWORD: ACCOUNT.password, TRUST_PROXY: "1" })
  try {
    const login = await measureLoad(`${server.baseUrl}/api/auth/login`, load, { method: "POST", json: ACCOUNT, manyClients: true })
    await server.stop()
    return { login, rawVerifiesPerSecond, ratio: login.requestsPerSecond / rawVerifiesPerSecond }
  } finally {
    server.kill()
  }
}
