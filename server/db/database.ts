import fs from "node:fs/promises"
import path from "node:path"

import { Kysely, Migrator, PostgresDialect, sql } from "kysely"

import { migrationProvider } from "./migrations"
import { guardedPostgresPool } from "./postgres-pool"
import type { DatabaseSchema } from "./schema"

export type DatabaseKind = "embedded" | "postgres"

export interface Database {
  kind: DatabaseKind
  db: Kysely<DatabaseSchema>
  /** Round-trip time of a trivial query, in milliseconds; throws when the database is unreachable. */
  ping(): Promise<number>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded database is used. */
  databaseUrl?: string
  /** Folder of the embedded database; in memory when absent (tests). */
  embeddedDir?: string
  /** A dump made by dumpEmbedded to start from, which skips the slow first initialisation. */
  embeddedTemplate?: Blob
}

/** Opens the configured database and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const { kind, db, closeDriver } = await connect(options)
  try {
    await migrateToLatest(db)
  } catch (error) {
    await db.destroy().catch(() => {})
    await closeDriver()
    throw error
  }
  return databaseOver(kind, db, closeDriver)
}

/** The Database of a Kysely instance already migrated; `closeDriver` runs after Kysely's own destroy. */
export function databaseOver(kind: DatabaseKind, db: Kysely<DatabaseSchema>, closeDriver: () => Promise<void>): Database {
  return {
    kind,
    db,
    async ping() {
      const started = performance.now()
      await sql`select 1`.execute(db)
      return performance.now() - started
    },
    async close() {
      await db.destroy()
      await closeDriver()
    }
  }
}

/** Each driver is loaded when it is the one configured: the other is 0.03 to 0.05 CPU-s of a start for nothing. */
async function connect(options: DatabaseOptions) {
  if (options.databaseUrl) {
    const { default: pg } = await import("pg")
    // A server that is down or stops answering fails calls within a second (503) instead of hanging them.
    const pool = guardedPostgresPool(pg, options.databaseUrl)
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) })
    return { kind: "postgres" as const, db, closeDriver: async () => {} }
  }
  if (options.embeddedDir) await fs.mkdir(options.embeddedDir, { recursive: true })
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([import("@electric-sql/pglite"), import("kysely-pglite-dialect")])
  const pglite = await PGlite.create({
    dataDir: options.embeddedDir,
    loadDataDir: options.embeddedTemplate
  })
  const db = new Kysely<DatabaseSchema>({ dialect: new PGliteDialect(pglite) })
  return {
    kind: "embedded" as const,
    db,
    closeDriver: async () => {
      if (!pglite.closed) await pglite.close()
    }
  }
}

export async function migrateToLatest(db: Kysely<DatabaseSchema>): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((result) => result.status === "Error")
    throw new Error(
      `Database migration ${failed?.migrationName ?? "(unknown)"} failed: ${error instanceof Error ? error.message : String(error)}`
    )
  }
}

/** Where the embedded database lives inside DATA_DIR. */
export function embeddedDatabaseDir(dataDir: string): string {
  return path.join(dataDir, "db")
}

/** A migrated, empty embedded database as a blob: tests open copies of it in well under a second. */
export async function createEmbeddedTemplate(): Promise<Blob> {
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([import("@electric-sql/pglite"), import("kysely-pglite-dialect")])
  const pglite = await PGlite.create()
  const db = new Kysely<DatabaseSchema>({ dialect: new PGliteDialect(pglite) })
  await migrateToLatest(db)
  const dump = await pglite.dumpDataDir("none")
  await db.destroy()
  if (!pglite.closed) await pglite.close()
  return dump
}
