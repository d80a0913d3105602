/** Test helpers of the analyze routes: the plugin on a small app with test-only options, a provider stand-in, users. */
import fs from "node:fs/promises"
import http from "node:http"
import type { AddressInfo } from "node:net"

import type { FastifyInstance } from "fastify"

import type { Clock } from "../app"
import { signIn } from "../auth/account-service"
import type { Database } from "../db/database"
import { startTestApp } from "../test-support"
import type { AnalyzeRoutesOptions } from "./routes"

/** A 1×1 PNG. */
export const PNG_1PX = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64"
)
export const PNG_DATA_URL = `data:image/png;base64,${PNG_1PX.toString("base64")}`

/** The app as buildApp makes it, with the analyze options only tests set: short time-outs, loopback image URLs. */
export async function startAnalyzeApp(
  env: Record<string, string>,
  options: AnalyzeRoutesOptions,
  dependencies: { clock: Clock; database?: Database }
): Promise<{ app: FastifyInstance; database: Database; close(): Promise<void> }> {
  const subject = await startTestApp(env, { clock: dependencies.clock, database: dependencies.database, analyze: options })
  return {
    app: subject.app,
    database: subject.database,
    async close() {
      if (!dependencies.database) return subject.close()
      // A database handed in belongs to the caller: close only the app and its data folder.
      await subject.app.close()
      await fs.rm(subject.dataDir, { recursive: true, force: true })
    }
  }
}

let userCounter = 0

/** A verified user on the given plan, signed in: its id and access token. */
export async function signedInUser(
  app: FastifyInstance,
  plan: "free" | "pro" | "enterprise" = "free",
  requestLimit: number | null = null
): Promise<{ id: string; token: string }> {
  const user = await app.database.db
    .insertInto("users")
    .values({
      email: `asker${++userCounter}-${Math.random().toString(36).slice(2)}@example.com`,
      name: "Grace Hopper",
      password_hash: null,
      email_verified_at: new Date(app.clock()),
      google_uid: null,
      terms_accepted_at: new Date(app.clock()),
      plan_id: plan,
      request_limit: requestLimit
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const { token } = await signIn(app, user)
  return { id: user.id, token }
}

export interface RecordedRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

export type StandInHandler = (request: RecordedRequest, response: http.ServerResponse) => void

/** A local HTTP server whose behaviour each test sets; records what it receives. */
export async function startStandIn(initial: StandInHandler): Promise<{
  url: string
  port: number
  requests: RecordedRequest[]
  handle(handler: StandInHandler): void
  close(): Promise<void>
}> {
  let handler = initial
  const requests: RecordedRequest[] = []
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const recorded = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") }
      requests.push(recorded)
      handler(recorded, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    handle(next) {
      handler = next
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** A chat-completions answer as OpenAI sends it. */
export function completion(content: string, model = "gpt-4o-mini") {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
  }
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}
