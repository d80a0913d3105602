/**
 * The API tests' embedded databases, reused within a worker process. Opening one loads the run's 41 MB migrated dump
 * into a new PGlite: about 0.65 CPU-s, 112 times a run. A database a test closes instead goes back to its worker's
 * pool, emptied back to the template's contents (about 0.04 s), and the next test that opens one gets it.
 *
 * What a test sees is what a fresh copy of the template gives:
 * - the rows: every table is truncated, identities restarted, and the rows the migrations seeded put back;
 * - the session: an open transaction rolled back, then DISCARD ALL (settings, prepared statements, temporary tables,
 *   advisory locks);
 * - the schema: a database whose catalogue counts differ from the template's after the reset (a test that altered
 *   it) is closed, not pooled;
 * - a closed database stays closed for whoever still holds it: its handle refuses every query once it is released,
 *   as a closed PGlite would (the status test closes one under a running app on purpose).
 */
import fs from "node:fs/promises"

import { PGlite } from "@electric-sql/pglite"
import { Kysely } from "kysely"
import { PGliteDialect } from "kysely-pglite-dialect"

import { databaseOver, type Database } from "../db/database"
import type { DatabaseSchema } from "../db/schema"

/** Idle databases a worker keeps; a test rarely holds more than two at once. */
const MAX_IDLE = 2

/** Counts of the catalogue that any CREATE, ALTER or DROP changes. */
const CATALOGUE_FINGERPRINT = `select (select count(*) from pg_class) || '/' || (select count(*) from pg_attribute) || '/' ||
  (select count(*) from pg_constraint) || '/' || (select count(*) from pg_proc) || '/' || (select count(*) from pg_type) as fingerprint`

interface Template {
  dump: Blob
  /** Databases opened on it and given back, emptied. */
  idle: PGlite[]
  /** The tables to empty, quoted, and the rows the migrations put in some of them. */
  tables: string[]
  seeded: { table: string; rows: string }[]
  fingerprint: string
}

const templates = new Map<string, Promise<Template>>()

async function fingerprintOf(pglite: PGlite): Promise<string> {
  return (await pglite.query<{ fingerprint: string }>(CATALOGUE_FINGERPRINT)).rows[0]!.fingerprint
}

/** Reads the template's dump once per worker, and what a reset must restore from the first database opened on it. */
function templateAt(dumpPath: string): Promise<Template> {
  let template = templates.get(dumpPath)
  if (!template) {
    template = (async () => {
      const dump = new Blob([await fs.readFile(dumpPath)])
      const pglite = await PGlite.create({ loadDataDir: dump })
      const tables = (
        await pglite.query<{ name: string }>(
          "select quote_ident(tablename) as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_migration%' order by 1"
        )
      ).rows.map((row) => row.name)
      const seeded: Template["seeded"] = []
      for (const table of tables) {
        const rows = (await pglite.query<{ rows: string | null }>(`select json_agg(t)::text as rows from ${table} t`)).rows[0]!.rows
        if (rows) seeded.push({ table, rows })
      }
      const fingerprint = await fingerprintOf(pglite)
      return { dump, idle: [pglite], tables, seeded, fingerprint }
    })()
    templates.set(dumpPath, template)
  }
  return template
}

/** Empties `pglite` back to the template; false when its schema no longer matches, so that it is not reused. */
async function reset(pglite: PGlite, template: Template): Promise<boolean> {
  // A transaction a test left open (no-op, with a warning, when there is none); DISCARD ALL refuses to run in one.
  await pglite.exec("rollback")
  await pglite.exec("discard all")
  // Replica mode skips triggers, the audit log's refusal of TRUNCATE among them: this stands for loading the dump again.
  await pglite.exec(`set session_replication_role = replica; truncate ${template.tables.join(", ")} restart identity cascade; reset session_replication_role`)
  for (const { table, rows } of template.seeded) {
    await pglite.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1)`, [rows])
  }
  return (await fingerprintOf(pglite)) === template.fingerprint
}

/** A migrated embedded database as a fresh copy of the template at `dumpPath` would be; closing it pools it. */
export async function leaseEmbeddedDatabase(dumpPath: string): Promise<Database> {
  const template = await templateAt(dumpPath)
  const pglite = template.idle.pop() ?? (await PGlite.create({ loadDataDir: template.dump }))
  let released: Promise<void> | null = null
  const release = () =>
    (released ??= (async () => {
      const reusable = await reset(pglite, template).catch(() => false)
      if (reusable && template.idle.length < MAX_IDLE) template.idle.push(pglite)
      else await pglite.close()
    })())
  // Kysely's PGlite driver runs queries with client.query and ends with client.close: the lease in between.
  const client = {
    query: (...args: Parameters<PGlite["query"]>) => {
      if (released) return Promise.reject(new Error("The database is closed"))
      return pglite.query(...args)
    },
    close: release
  }
  const db = new Kysely<DatabaseSchema>({ dialect: new PGliteDialect(client as unknown as PGlite) })
  return databaseOver("embedded", db, release)
}
