import autocannon from "autocannon"

export interface LoadSettings {
  durationSeconds: number
  connections: number
}

export interface LoadFigures {
  requestsPerSecond: number
  latencyP50Ms: number
  latencyP99Ms: number
  requests: number
  non2xx: number
  /** Includes timeouts. */
  errors: number
  timeouts: number
}

/** A short unmeasured run first, so the figures show the warmed-up server, not JIT compilation. */
const WARMUP_SECONDS = 1
const REQUEST_TIMEOUT_SECONDS = 10

export interface LoadRequest {
  method: "POST"
  json: unknown
  /**
   * Gives every request its own X-Forwarded-For address (the server runs with TRUST_PROXY), as
   * many clients behind a proxy would; per-IP limits would otherwise refuse a single load generator.
   */
  manyClients?: boolean
}

let forwardedCounter = 0
/** Another client address each call, as clients behind a trusted proxy appear in X-Forwarded-For. */
export function nextClientAddress(): string {
  forwardedCounter++
  return `10.${(forwardedCounter >> 16) & 255}.${(forwardedCounter >> 8) & 255}.${forwardedCounter & 255}`
}

export async function measureLoad(url: string, { durationSeconds, connections }: LoadSettings, request?: LoadRequest): Promise<LoadFigures> {
  const headers = request ? { "content-type": "application/json" } : undefined
  const result = await autocannon({
    url,
    connections,
    duration: durationSeconds,
    timeout: REQUEST_TIMEOUT_SECONDS,
    warmup: { connections, duration: WARMUP_SECONDS },
    ...(request ? { method: request.method, body: JSON.stringify(request.json), headers } : {}),
    ...(request?.manyClients
      ? {
          setupClient: (client) => {
            const rotate = () => client.setHeaders({ ...headers, "x-forwarded-for": nextClientAddress() })
            rotate()
            client.on("response", rotate)
          }
        }
      : {})
  })
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts
  }
}

/** The longest a measureLoad call can take, for the bench's overall time limit. */
export function loadTimeLimitSeconds({ durationSeconds }: LoadSettings): number {
  return WARMUP_SECONDS + durationSeconds + REQUEST_TIMEOUT_SECONDS
}
