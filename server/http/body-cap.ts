import type { IncomingMessage } from "node:http"

/** What the readers of a capped body see once it went over its cap. */
export class BodyOverCapError extends Error {
  constructor() {
    super("The request body is larger than allowed.")
    this.name = "BodyOverCapError"
  }
}

/**
 * Caps a body that a plugin reads straight from the request stream (multipart uploads), which
 * Fastify's bodyLimit does not cover: once more than maxBytes arrived, reading stops and the stream's
 * readers get a BodyOverCapError, as for a broken connection. Call it in the same tick as the reader
 * starts, so no chunk passes uncounted.
 */
export function capRequestBody(raw: IncomingMessage, maxBytes: number): { readonly exceeded: boolean; release(): void } {
  let received = 0
  let exceeded = false
  const onData = (chunk: Buffer) => {
    received += chunk.length
    if (exceeded || received <= maxBytes) return
    exceeded = true
    raw.unpipe()
    raw.pause()
    // Without a reader listening, an emitted error would crash the process: end the connection instead.
    if (raw.listenerCount("error") > 0) raw.emit("error", new BodyOverCapError())
    else raw.destroy()
  }
  raw.on("data", onData)
  return {
    get exceeded() {
      return exceeded
    },
    release() {
      raw.off("data", onData)
    }
  }
}
