/** What `withTimeout` rejects with when the time runs out. */
export class TimeoutError extends Error {
  override readonly name: string = "TimeoutError"
}

/**
 * Settles like `promise`, or rejects with `new TimeoutError(message)` after `ms` milliseconds. The work itself is not
 * stopped (a promise cannot be); callers that must free what arrives late do so themselves.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(message)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
