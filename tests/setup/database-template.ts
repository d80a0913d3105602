import fs from "node:fs/promises"
import os from "node:os"
import path from "node:path"

import type { TestProject } from "vitest/node"

import { createEmbeddedTemplate, openDatabase } from "../../server/db/database"
import { createDatabase, databaseUrl, dropDatabase, freshDatabaseName, TEST_DATABASE_URL_VARIABLE } from "./postgres-databases"

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplatePath: string
    /**
     * In the api project, a migrated embedded database folder made from the template: a spawned server's fresh
     * DATA_DIR gets a copy of it (server/test-kit/spawned-server.ts) instead of creating and migrating its own.
     */
    databaseSeedDir: string
    /** Set in the api-postgres project: the server, and the migrated database each test file copies. */
    postgresTemplate: { adminUrl: string; template: string } | null
  }
}

/** The project whose test files run on PostgreSQL: the same files as api. */
export const POSTGRES_PROJECT = "api-postgres"

/**
 * Initialising a database takes seconds; it is done once per run and every test file opens a copy of the migrated
 * result: an embedded dump, and in the api-postgres project a template database on the PostgreSQL server.
 */
export default async function setup(project: TestProject) {
  let folder: string | null = null
  let postgres: { adminUrl: string; template: string } | null = null
  if (project.name !== POSTGRES_PROJECT) {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), "iqa-db-template-"))
    const file = path.join(folder, "template.tar")
    const template = await createEmbeddedTemplate()
    await fs.writeFile(file, Buffer.from(await template.arrayBuffer()))
    project.provide("databaseTemplatePath", file)
    const seed = path.join(folder, "db")
    await (await openDatabase({ embeddedDir: seed, embeddedTemplate: template })).close()
    project.provide("databaseSeedDir", seed)
  } else {
    // Nothing there opens an embedded database from the template: every test database is a PostgreSQL copy.
    project.provide("databaseTemplatePath", "")
    project.provide("databaseSeedDir", "")
    const adminUrl = process.env[TEST_DATABASE_URL_VARIABLE]
    if (!adminUrl) throw new Error(`The ${POSTGRES_PROJECT} project needs ${TEST_DATABASE_URL_VARIABLE}`)
    postgres = { adminUrl, template: freshDatabaseName("iqa_template") }
    await createDatabase(adminUrl, postgres.template)
    const migrated = await openDatabase({ databaseUrl: databaseUrl(adminUrl, postgres.template) })
    await migrated.close()
  }
  project.provide("postgresTemplate", postgres)

  return async () => {
    if (folder) await fs.rm(folder, { recursive: true, force: true })
    if (postgres) await dropDatabase(postgres.adminUrl, postgres.template)
  }
}
