/**
 * PostgreSQL for the api-postgres test project: the server named by TEST_DATABASE_URL, a migrated template database
 * made once per run, and one database per test file copied from it (CREATE DATABASE … TEMPLATE takes a fraction of
 * a second), dropped when the file closes it.
 */
import { randomUUID } from "node:crypto"

import pg from "pg"

/** The variable naming the PostgreSQL server of the tests: a URL whose role may create databases. */
export const TEST_DATABASE_URL_VARIABLE = "TEST_DATABASE_URL"

/** The URL of another database on the same server (the admin URL names the one to connect to for CREATE/DROP). */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/** A name PostgreSQL takes without quoting problems: lower case letters, digits and underscores. */
export function freshDatabaseName(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 20)}`
}

async function withAdmin<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/** Why the server cannot be used, or null when it answers and lets this role create databases. */
export async function postgresUnavailableReason(adminUrl: string | undefined): Promise<string | null> {
  if (!adminUrl) return `${TEST_DATABASE_URL_VARIABLE} is not set`
  try {
    const canCreate = await withAdmin(adminUrl, async (client) => {
      const answer = await client.query<{ allowed: boolean }>("select rolcreatedb or rolsuper as allowed from pg_roles where rolname = current_user")
      return answer.rows[0]?.allowed === true
    })
    return canCreate ? null : `the role of ${TEST_DATABASE_URL_VARIABLE} may not create databases`
  } catch (error) {
    return `no PostgreSQL server answers at ${TEST_DATABASE_URL_VARIABLE} (${error instanceof Error ? error.message : String(error)})`
  }
}

export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  await withAdmin(adminUrl, (client) => client.query(`create database ${name}${template ? ` template ${template}` : ""}`))
}

/** PostgreSQL's insufficient_privilege. */
const INSUFFICIENT_PRIVILEGE = "42501"

/**
 * Drops a test database and ends the sessions still on it. Ending an autovacuum worker's needs pg_signal_backend
 * (scripts/test-postgres.sh grants it); without it, a plain drop, which stops autovacuum by itself, is tried again.
 */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, async (client) => {
    try {
      await client.query(`drop database if exists ${name} with (force)`)
    } catch (error) {
      if ((error as { code?: string }).code !== INSUFFICIENT_PRIVILEGE) throw error
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(`drop database if exists ${name}`)
          return
        } catch (retryError) {
          if (attempt >= 10) throw retryError
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
      }
    }
  })
}
