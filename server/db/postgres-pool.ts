/**
 * The PostgreSQL connections Kysely uses, behind the availability watch (./availability): a server that is down or
 * stops answering fails each call within a second (ServiceUnavailableError, answered 503) instead of hanging it, and
 * calls go through again as soon as it answers, with no restart.
 */
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely"
import type pg from "pg"

import { withTimeout } from "~core/with-timeout"

import { ServiceUnavailableError, unavailableServiceError, watchAvailability } from "./availability"

type PgModule = typeof pg

/**
 * How long a call may wait for one of the pool's connections (or for a new one to be made) on a server that answers:
 * a pool this busy is an overload, answered 503 rather than a wait without end.
 */
const POOL_WAIT_MS = 10_000

/** How long closing waits for connections to end politely. */
const CLOSE_WAIT_MS = 5_000

/** Socket errors of a server that cannot be reached. */
const NETWORK_ERROR_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"])

/**
 * SQLSTATEs of a server that cannot serve now: connection exceptions (08…), shutting down or starting up (57P01 to
 * 57P03), out of connections (53300). Any other SQLSTATE is the server answering (a constraint, a syntax error).
 */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"])

/** Whether a pg error means the server cannot be reached or cannot serve, rather than an answer to the query. */
function isPostgresUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === "string") return code.startsWith("08") || UNAVAILABLE_STATES.has(code) || NETWORK_ERROR_CODES.has(code)
  // pg's own errors carry no code: a connection that ended, or one not made in time.
  return error instanceof Error && /connection terminated|timeout exceeded when trying to connect|not queryable/i.test(error.message)
}

/** Drops a client's socket at once: a server that answers nothing would never finish a polite goodbye. */
function dropConnection(client: pg.ClientBase): void {
  ;(client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()
}

/**
 * Opening the probe's connection (TCP, then SCRAM, whose hashing waits its turn in libuv's threads behind argon2 on a
 * busy server) may take longer than a probe may: it goes on after the probe that started it gave up, until this.
 */
const PROBE_CONNECT_TIMEOUT_MS = 3_000

/**
 * `select 1` on a connection of its own, opened at start and kept open between probes: the pool's may all be busy
 * or stuck, and a probe then costs one round trip, nothing more. A probe that fails or is given up on drops it; the
 * next opens a new one (one opening at a time).
 */
function postgresProbe(pgModule: PgModule, connectionString: string) {
  let client: pg.Client | null = null
  let opening: Promise<pg.Client> | null = null
  let closed = false
  const drop = (which: pg.Client | null) => {
    if (!which) return
    if (client === which) client = null
    dropConnection(which)
  }
  const connection = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client)
    opening ??= (async () => {
      const fresh = new pgModule.Client({ connectionString, connectionTimeoutMillis: PROBE_CONNECT_TIMEOUT_MS })
      // An error on an idle connection must not crash the process: the next probe opens another.
      fresh.on("error", () => drop(fresh))
      try {
        await fresh.connect()
      } catch (error) {
        dropConnection(fresh)
        throw error
      } finally {
        opening = null
      }
      if (closed) {
        dropConnection(fresh)
        throw new Error("the database was closed")
      }
      client = fresh
      return fresh
    })()
    return opening
  }
  return {
    async probe(signal: AbortSignal): Promise<void> {
      const current = await connection()
      if (signal.aborted) throw new Error("the probe was given up while its connection opened")
      const abort = () => drop(current)
      signal.addEventListener("abort", abort, { once: true })
      try {
        await current.query("select 1")
      } catch (error) {
        drop(current)
        throw error
      } finally {
        signal.removeEventListener("abort", abort)
      }
    },
    warm: () => void connection().catch(() => {}),
    /** Ends the connection politely (a template database copied next must have no session left), or drops it. */
    close: async () => {
      closed = true
      const last = client
      client = null
      if (last) await withTimeout(last.end(), CLOSE_WAIT_MS, "the probe's connection did not end").catch(() => dropConnection(last))
    }
  }
}

/** A pg pool for Kysely's PostgresDialect whose calls fail fast while the server is away. */
export function guardedPostgresPool(pgModule: PgModule, connectionString: string): PostgresPool {
  const pool = new pgModule.Pool({ connectionString, max: 10, connectionTimeoutMillis: POOL_WAIT_MS })
  // An idle client losing its connection must not crash the process: the pool drops it.
  pool.on("error", () => {})
  const prober = postgresProbe(pgModule, connectionString)
  prober.warm()
  const availability = watchAvailability({ service: "database", probe: prober.probe, isUnreachable: isPostgresUnreachable })
  /** Clients whose connection failed or was dropped: never given back to the pool, where a dangling transaction could swallow the next caller's writes. */
  const broken = new WeakSet<pg.PoolClient>()
  const listened = new WeakSet<pg.PoolClient>()

  return {
    async connect(): Promise<PostgresPoolClient> {
      let acquiring: Promise<pg.PoolClient> | null = null
      const client = await availability.run(() => (acquiring = pool.connect()), {
        // Given up on: a connection that arrives late goes straight back, closed.
        onAbandon: () => void acquiring?.then((late) => late.release(true), () => {}),
        showsAnswer: false
      })
      if (!listened.has(client)) {
        listened.add(client)
        // The pool listens for errors only while a client is idle: one lost while lent out would crash the process.
        client.on("error", () => broken.add(client))
      }
      const query = (sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<unknown>> => {
        if (broken.has(client)) return Promise.reject(new ServiceUnavailableError("database"))
        return availability
          .run(() => client.query(sql, parameters as unknown[]) as unknown as Promise<PostgresQueryResult<unknown>>, {
            onAbandon: () => {
              broken.add(client)
              dropConnection(client)
            }
          })
          .catch((error: unknown) => {
            // Whatever this connection was in the middle of (a transaction, say) is not to be trusted now.
            if (unavailableServiceError(error)) broken.add(client)
            throw error
          })
      }
      return {
        // Kysely passes a cursor only when the dialect is given one, which ours is not.
        query: query as PostgresPoolClient["query"],
        release: () => client.release(broken.has(client) ? true : undefined)
      }
    },
    async end() {
      availability.close()
      await prober.close()
      // A server that answers nothing would never see the pool's connections end: closing must not hang with it.
      await withTimeout(pool.end(), CLOSE_WAIT_MS, "the pool's connections did not end").catch(() => {})
    }
  }
}
