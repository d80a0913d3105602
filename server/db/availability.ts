/**
 * Whether a service the server talks over the network (PostgreSQL, Redis) is answering, and the fail-fast that follows
 * from it. A service that is shut down refuses connections at once; one that hangs (a stopped process, a lost host)
 * keeps its connections open and answers nothing, and a request waiting on it would hang with it. So:
 * - an operation still running after suspectAfterMs has the service probed with a trivial round trip (a query may
 *   be slow for its own reasons: a lock, a big table; the probe tells that from a service that answers nothing);
 * - a probe not answered within probeTimeoutMs, or failing to connect, finds the service away: every operation
 *   still running fails at once (its connection is dropped), and new ones fail without being tried;
 * - while away, the service is probed every recheckMs; the first answer lets operations through again.
 * A failure is ServiceUnavailableError, which the API answers as 503 SERVICE_UNAVAILABLE (server/http/errors.ts).
 */

export type WatchedService = "database" | "redis"

/** The service did not answer: the request is refused with 503, and nothing it was doing may be taken as done. */
export class ServiceUnavailableError extends Error {
  constructor(
    readonly service: WatchedService,
    options?: { cause?: unknown }
  ) {
    const cause = options?.cause instanceof Error ? `: ${options.cause.message}` : ""
    super(`The ${service} is not answering${cause}`, options)
    this.name = "ServiceUnavailableError"
  }
}

/** The ServiceUnavailableError behind `error` (itself or one of its causes), or null. */
export function unavailableServiceError(error: unknown): ServiceUnavailableError | null {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof ServiceUnavailableError) return cause
  }
  return null
}

export interface AvailabilityTimings {
  suspectAfterMs: number
  probeTimeoutMs: number
  recheckMs: number
}

/**
 * An operation in flight when a service hangs fails after at most suspectAfterMs + probeTimeoutMs, 0.75 s: a request
 * that was already partway through its work when the service stopped is still answered within a second or so. A
 * query or command is far quicker than 250 ms on a healthy service, and one that is not only costs a probe; a probe
 * (`select 1`, PING) answers in milliseconds on a service that answers at all.
 */
export const DEFAULT_AVAILABILITY_TIMINGS: AvailabilityTimings = { suspectAfterMs: 250, probeTimeoutMs: 500, recheckMs: 250 }

export interface AvailabilityOptions {
  service: WatchedService
  /** A trivial round trip on the service; rejects when it fails. Its `signal` aborts when the probe has taken too long. */
  probe(signal: AbortSignal): Promise<void>
  /** Whether an operation's error means the service cannot be reached (not a refusal the service itself answered). */
  isUnreachable(error: unknown): boolean
  timings?: AvailabilityTimings
}

export interface RunOptions {
  /** Drops what an operation given up on holds (a connection that may still be in use by the service). */
  onAbandon?: () => void
  /**
   * Whether the operation's settling shows the service answering (true unless said otherwise). A connection handed
   * out by a pool says nothing: it may have been idle there since before the service stopped.
   */
  showsAnswer?: boolean
}

export interface Availability {
  /**
   * Runs `operation` unless the service is known to be away. It fails with ServiceUnavailableError when the service is
   * found away while it runs (`onAbandon` then drops whatever it holds) or when it fails as an unreachable service does.
   */
  run<T>(operation: () => Promise<T>, options?: RunOptions): Promise<T>
  /** Stops the probes. */
  close(): void
}

export function watchAvailability({ service, probe, isUnreachable, timings = DEFAULT_AVAILABILITY_TIMINGS }: AvailabilityOptions): Availability {
  const running = new Set<(error: ServiceUnavailableError) => void>()
  let away = false
  let probing = false
  let closed = false
  let recheck: ReturnType<typeof setTimeout> | null = null
  /** When the service last answered an operation (a result or a refusal of its own): it was there then. */
  let lastAnswerAt = 0

  /** One probe: settles true when the service answered in time. */
  const answers = async (): Promise<boolean> => {
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    // Timers run before the event loop reads its sockets: after a loop blocked for longer than the timeout (a busy
    // machine), the answer may be waiting unread. setImmediate runs after the reads, so it is not mistaken for none.
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => setImmediate(() => resolve(false)), timings.probeTimeoutMs)
    })
    try {
      return await Promise.race([probe(controller.signal).then(() => true, () => false), timedOut])
    } finally {
      clearTimeout(timer)
      // A probe that answered leaves nothing behind; one that did not is told to drop its connection.
      controller.abort()
    }
  }

  const scheduleRecheck = () => {
    if (closed) return
    recheck = setTimeout(() => {
      recheck = null
      void answers().then((answered) => {
        if (answered) away = false
        else scheduleRecheck()
      })
    }, timings.recheckMs)
    recheck.unref?.()
  }

  const goAway = () => {
    if (away || closed) return
    away = true
    const error = new ServiceUnavailableError(service)
    for (const abandon of [...running]) abandon(error)
    scheduleRecheck()
  }

  /**
   * Something ran long or failed as if the service were away: a probe decides (one at a time). An operation the
   * service answered meanwhile outweighs a probe that came too late: a busy machine is not a service away.
   */
  const suspect = () => {
    if (probing || away || closed) return
    probing = true
    const probedAt = performance.now()
    void answers().then((answered) => {
      probing = false
      if (answered) return
      if (lastAnswerAt < probedAt) return goAway()
      // Outweighed this time: what is still running is looked at again, or it could wait without end.
      if (running.size > 0) setTimeout(suspect, timings.suspectAfterMs).unref?.()
    })
  }

  return {
    run<T>(operation: () => Promise<T>, { onAbandon, showsAnswer = true }: RunOptions = {}): Promise<T> {
      if (away) return Promise.reject(new ServiceUnavailableError(service))
      return new Promise<T>((resolve, reject) => {
        let settled = false
        const timer = setTimeout(suspect, timings.suspectAfterMs)
        timer.unref?.()
        const settle = () => {
          settled = true
          clearTimeout(timer)
          running.delete(abandon)
        }
        const abandon = (error: ServiceUnavailableError) => {
          if (settled) return
          settle()
          onAbandon?.()
          reject(error)
        }
        running.add(abandon)
        let started: Promise<T>
        try {
          started = operation()
        } catch (error) {
          started = Promise.reject(error)
        }
        started.then(
          (value) => {
            if (settled) return
            if (showsAnswer) lastAnswerAt = performance.now()
            settle()
            resolve(value)
          },
          (error: unknown) => {
            if (settled) return
            settle()
            if (!isUnreachable(error)) {
              if (showsAnswer) lastAnswerAt = performance.now()
              return reject(error)
            }
            suspect()
            reject(new ServiceUnavailableError(service, { cause: error }))
          }
        )
      })
    },
    close() {
      closed = true
      if (recheck) clearTimeout(recheck)
    }
  }
}
