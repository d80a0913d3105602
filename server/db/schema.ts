import type { ColumnType } from "kysely"

/** Settings the server keeps as JSON documents, one row per key (the password policy, for one). */
export interface AppSettingsTable {
  key: string
  value: unknown
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface DatabaseSchema {
  app_settings: AppSettingsTable
}
