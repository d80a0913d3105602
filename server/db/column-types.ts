/** The column types the schema's tables share (schema.ts, schema-sign-in.ts). */
import type { ColumnType } from "kysely"

export type Timestamp = ColumnType<Date, Date | string, Date | string>
/** A column the database fills with its default when an insert leaves it out. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>
