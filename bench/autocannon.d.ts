// autocannon ships no types and @types/autocannon is not installed: this declares only what bench/ uses.
declare module "autocannon" {
  interface Options {
    url: string
    connections?: number
    /** Seconds. */
    duration?: number
    /** Seconds before a request counts as timed out (and as an error). */
    timeout?: number
    /** A run before the measured one whose figures are kept apart. */
    warmup?: { connections?: number; duration?: number }
    method?: string
    body?: string
    headers?: Record<string, string>
    /** Requests made in turn on every connection; setupRequest may change each one before it goes. */
    requests?: AutocannonRequest[]
    /** Called before each request; may change its headers. */
    setupClient?: (client: { setHeaders(headers: Record<string, string>): void; on(event: "response", listener: () => void): void }) => void
  }

  interface RequestParams {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }

  interface AutocannonRequest extends RequestParams {
    onResponse?: (status: number, body: string) => void
    /** `context` is one object per connection, kept across its requests. */
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams
  }

  interface Result {
    /** Per-second samples of completed requests. */
    requests: { average: number; total: number }
    /** Milliseconds, 2xx responses only. */
    latency: { p50: number; p99: number }
    non2xx: number
    /** Includes timeouts. */
    errors: number
    timeouts: number
    /** Seconds. */
    duration: number
  }

  export default function autocannon(options: Options): Promise<Result>
}
