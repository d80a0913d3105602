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

export async function measureLoad(url: string, { durationSeconds, connections }: LoadSettings): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections,
    duration: durationSeconds,
    timeout: REQUEST_TIMEOUT_SECONDS,
    warmup: { connections, duration: WARMUP_SECONDS }
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
