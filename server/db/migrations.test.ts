import { Migrator, sql, type Kysely } from "kysely"
import { inject, describe, expect, it } from "vitest"

import { createDatabase, databaseUrl, dropDatabase, freshDatabaseName } from "../../tests/setup/postgres-databases"
import { makeTempDir } from "../test-kit"
import { openDatabase, type DatabaseOptions } from "./database"
import { migrationProvider } from "./migrations"

/** Tables, columns, constraints and indexes of the public schema: what a migration run could change. */
async function schemaOf(db: Kysely<unknown>): Promise<string[]> {
  const columns = await sql<{ line: string }>`
    select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as line
    from information_schema.columns where table_schema = 'public' order by 1`.execute(db)
  const constraints = await sql<{ line: string }>`
    select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as line
    from pg_constraint where connamespace = 'public'::regnamespace order by 1`.execute(db)
  const indexes = await sql<{ line: string }>`select indexdef as line from pg_indexes where schemaname = 'public' order by 1`.execute(db)
  return [...columns.rows, ...constraints.rows, ...indexes.rows].map((row) => row.line)
}

/** An empty database of the kind this project runs on, and how to remove it. */
async function emptyDatabase(): Promise<{ options: DatabaseOptions; remove(): Promise<void> }> {
  const postgres = inject("postgresTemplate")
  if (postgres) {
    const name = freshDatabaseName("iqa_empty")
    await createDatabase(postgres.adminUrl, name)
    return { options: { databaseUrl: databaseUrl(postgres.adminUrl, name) }, remove: () => dropDatabase(postgres.adminUrl, name) }
  }
  return { options: { embeddedDir: await makeTempDir("iqa-empty-db-") }, remove: async () => {} }
}

describe(`migrations on an empty ${inject("postgresTemplate") ? "PostgreSQL" : "embedded"} database`, () => {
  it("apply every migration once, and a second start on the up-to-date database changes nothing", async () => {
    const empty = await emptyDatabase()
    try {
      const first = await openDatabase(empty.options)
      const names = (await migrationProvider.getMigrations()) as Record<string, unknown>
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(first.db)
      expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(names).sort())
      const schema = await schemaOf(first.db as unknown as Kysely<unknown>)
      expect(schema.length).toBeGreaterThan(50)
      await first.close()

      const second = await openDatabase(empty.options)
      const rerun = await new Migrator({ db: second.db, provider: migrationProvider }).migrateToLatest()
      expect(rerun.error).toBeUndefined()
      expect(rerun.results).toEqual([])
      expect(await schemaOf(second.db as unknown as Kysely<unknown>)).toEqual(schema)
      expect((await sql<{ name: string }>`select name from kysely_migration`.execute(second.db)).rows).toHaveLength(applied.rows.length)
      await second.close()
    } finally {
      await empty.remove()
    }
    // Two cold starts, every migration on the first: 21 s beside app.test.ts's own cold starts on a busy machine, over
    // the API files' 20 s (app.test.ts allows the same 60 s).
  }, 60_000)
})
