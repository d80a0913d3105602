/**
 * A production start refuses what would put accounts at risk, naming the variable: no TOKEN_SECRET (the generated key
 * sits where every database role and backup reads it), and no Stripe without BILLING_MODE=test (test mode gives a
 * paid plan to anyone who types Stripe's test card). The real entry point, as an operator runs it.
 */
import fs from "node:fs/promises"

import { afterAll, describe, expect, it } from "vitest"

import { makeTempDir, spawnServer, spawnServerProcess } from "./test-kit"

const SECRET = "production-test-secret-of-32-characters!"
const dataDirs: string[] = []
afterAll(async () => Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))))

async function productionEnv(extra: Record<string, string>): Promise<Record<string, string>> {
  const dataDir = await makeTempDir("iqa-production-")
  dataDirs.push(dataDir)
  return { NODE_ENV: "production", DATA_DIR: dataDir, SMTP_URL: "smtp://127.0.0.1:1", LOG_LEVEL: "error", ...extra }
}

/** Runs the server to its exit; what it printed and its exit code. */
async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(TOKEN_SECRET|BILLING_MODE|STRIPE_|DATABASE_URL)/.test(name)))
  const child = await spawnServerProcess({ ...inherited, PORT: "0", ...env })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })))
}

describe("a production start", () => {
  it("without TOKEN_SECRET exits non-zero naming it", async () => {
    const { code, output } = await runToExit(await productionEnv({ BILLING_MODE: "test" }))
    expect(code).not.toBe(0)
    expect(output).toMatch(/TOKEN_SECRET must be set in production/)
  })

  it("without Stripe and without BILLING_MODE=test exits non-zero naming them", async () => {
    const { code, output } = await runToExit(await productionEnv({ TOKEN_SECRET: SECRET }))
    expect(code).not.toBe(0)
    expect(output).toMatch(/STRIPE_SECRET_KEY must be set in production.*BILLING_MODE=test/)
  })

  it("in test mode chosen on purpose starts, and its status says payments run in test mode", async () => {
    const server = await spawnServer(await productionEnv({ TOKEN_SECRET: SECRET, BILLING_MODE: "test" }))
    const status = (await (await fetch(`${server.url}/api/status`)).json()) as { data: { services: { id: string; message: string }[] } }
    expect(status.data.services.find((service) => service.id === "payments")?.message).toMatch(/test mode: no card is charged/)
    const config = (await (await fetch(`${server.url}/api/billing/config`)).json()) as { data: { mode: string } }
    expect(config.data.mode).toBe("test")
    server.child.kill("SIGTERM")
    await server.exited
  }, 60_000)
})
