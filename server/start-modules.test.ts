/**
 * A server loads the SDK of an outside service only when that service is configured: Stripe, firebase-admin, the S3
 * client, ioredis and node-postgres were 0.5 CPU-s of every start, set up or not. Checked in a process of its own
 * (the test workers share theirs with files that load them all), which records every module the app resolves.
 */
import { spawn } from "node:child_process"
import fs from "node:fs/promises"

import { afterAll, describe, expect, it } from "vitest"

import { makeTempDir, PROJECT_ROOT } from "./test-kit"

const OPTIONAL_SDKS = ["stripe", "firebase-admin", "@aws-sdk/client-s3", "ioredis", "pg"]

/** Builds the app with these variables in a fresh process and answers the packages it resolved on the way. */
const CHILD = `
import { MessageChannel } from "node:worker_threads"
import { register } from "node:module"
const { port1, port2 } = new MessageChannel()
const resolved = new Set()
port1.on("message", (url) => resolved.add(url))
port1.unref()
const hooks = "let port; export function initialize(data) { port = data.port } export async function resolve(specifier, context, next) { const result = await next(specifier, context); port.postMessage(result.url); return result }"
register("data:text/javascript," + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] })
const { buildApp } = await import("./server/app.ts")
const { loadConfig } = await import("./server/config.ts")
const app = await buildApp(loadConfig(process.env))
await app.ready()
await app.close()
await new Promise((done) => setTimeout(done, 200))
const packages = [...resolved].map((url) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(url)?.[1]).filter(Boolean)
console.log(JSON.stringify([...new Set(packages)]))
process.exit(0)
`

const folders: string[] = []
afterAll(async () => Promise.all(folders.map((folder) => fs.rm(folder, { recursive: true, force: true }))))

async function packagesLoaded(env: Record<string, string>): Promise<string[]> {
  const dataDir = await makeTempDir("iqa-start-modules-")
  folders.push(dataDir)
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(STRIPE_|FIREBASE_|S3_|REDIS_URL|DATABASE_URL)/.test(name)))
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], {
    cwd: PROJECT_ROOT,
    env: { ...inherited, NODE_ENV: "test", LOG_LEVEL: "error", DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve))
  if (code !== 0) throw new Error(`the app did not build (exit ${code}):\n${output}`)
  return JSON.parse(output.trim().split("\n").at(-1)!) as string[]
}

describe("the modules a start loads", () => {
  it("loads no SDK of a service that is not configured", async () => {
    const loaded = await packagesLoaded({})
    expect(loaded).toContain("fastify")
    expect(loaded.filter((name) => OPTIONAL_SDKS.includes(name))).toEqual([])
  }, 60_000)

  it("loads the SDKs of Google sign-in and object storage once they are configured", async () => {
    const loaded = await packagesLoaded({
      FIREBASE_PROJECT_ID: "demo-start-modules",
      S3_ENDPOINT: "http://127.0.0.1:1",
      S3_BUCKET: "start-modules",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret-of-the-start-modules-test"
    })
    expect(loaded).toEqual(expect.arrayContaining(["firebase-admin", "@aws-sdk/client-s3"]))
  }, 60_000)
})
