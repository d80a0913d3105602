/** A local HTTP stand-in for the services outside our control (the vision model, image hosts), and their answers. */
import http from "node:http"
import type { AddressInfo } from "node:net"

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
