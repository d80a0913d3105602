/**
 * A server loads the SDK of an outside service only when that service is configured: Stripe, firebase-admin, the S3
 * client, ioredis and node-postgres were 0.5 CPU-s of every start, set up or not. Checked on npm start's bundle in a
 * process of its own (the test workers share theirs with files that load them all), which records every module it
 * resolves from its start until it stops.
 */
import fs from "node:fs/promises"

import { afterAll, describe, expect, it } from "vitest"

import { makeTempDir, spawnServer } from "./test-kit"

const OPTIONAL_SDKS = ["stripe", "firebase-admin", "@aws-sdk/client-s3", "ioredis", "pg"]
const MARKER = "resolved packages:"

/** Runs in the server's process before its bundle (node --import): prints the packages resolved when it exits. */
const RECORDER = `
import { writeSync } from "node:fs"
import { register } from "node:module"
import { MessageChannel } from "node:worker_threads"
const { port1, port2 } = new MessageChannel()
const resolved = new Set()
port1.on("message", (url) => resolved.add(url))
port1.unref()
const hooks = "let port; export function initialize(data) { port = data.port } export async function resolve(specifier, context, next) { const result = await next(specifier, context); port.postMessage(result.url); return result }"
register("data:text/javascript," + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] })
process.on("exit", () => {
  const packages = [...resolved].map((url) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(url)?.[1]).filter(Boolean)
  writeSync(1, "\\n${MARKER}" + JSON.stringify([...new Set(packages)]) + "\\n")
})
`

const folders: string[] = []
afterAll(async () => Promise.all(folders.map((folder) => fs.rm(folder, { recursive: true, force: true }))))

/** Starts the server with these variables, serves /api/status, stops on SIGTERM: the packages it resolved meanwhile. */
async function packagesLoaded(env: Record<string, string>): Promise<string[]> {
  const dataDir = await makeTempDir("iqa-start-modules-")
  folders.push(dataDir)
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(STRIPE_|FIREBASE_|S3_|REDIS_URL|DATABASE_URL)/.test(name)))
  const server = await spawnServer({ DATA_DIR: dataDir, ...env }, { inherited, nodeArgs: ["--import", `data:text/javascript,${encodeURIComponent(RECORDER)}`] })
  server.child.kill("SIGTERM")
  await server.exited
  const line = server.output().split("\n").find((text) => text.startsWith(MARKER))
  if (!line) throw new Error(`the server printed no resolved packages (exit ${server.child.exitCode}):\n${server.output()}`)
  return JSON.parse(line.slice(MARKER.length)) as string[]
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
