import type { FastifyRequest } from "fastify"

/** Fields that hold a secret wherever they appear in a logged object. */
const SECRET_FIELDS = ["token", "refreshToken", "accessToken", "idToken", "password", "currentPassword", "newPassword", "oobCode", "link"]

export const REDACTED_LOG_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "headers.cookie",
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `req.body.${field}`]),
  // Only in a body is "code" a secret (a one-time code); elsewhere it is an error's code, worth seeing.
  "req.body.code",
  "body.code"
]

/**
 * The path and the names of its query parameters, never their values: verification and reset
 * links carry their one-time code (oobCode) in the query, and other queries carry e-mail addresses.
 */
export function loggableUrl(url: string): string {
  const question = url.indexOf("?")
  if (question === -1) return url
  const names = url
    .slice(question + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => pair.split("=")[0])
  return `${url.slice(0, question)}?${names.map((name) => `${name}=~`).join("&")}`
}

/** Fastify's request serializer, with the URL's query values left out; any other `req` object is left to redaction. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  if (typeof request.url !== "string" || !("socket" in request)) return request as unknown as Record<string, unknown>
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket ? request.socket.remotePort : undefined
  }
}
