import type { Migration, MigrationProvider } from "kysely"

import * as appSettings from "./001-app-settings"

/** Migrations in the order they apply; names never change once released. */
const MIGRATIONS: Record<string, Migration> = {
  "001-app-settings": appSettings
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS
}
