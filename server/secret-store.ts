import { randomBytes } from "node:crypto"
import fs from "node:fs/promises"
import path from "node:path"

import { sql, type Kysely } from "kysely"

import type { DatabaseSchema } from "./db/schema"

/**
 * Returns the secret stored as DATA_DIR/secrets/<name>, creating it once when missing.
 * The exclusive create means two processes starting together agree on one secret.
 */
export async function loadOrCreateSecret(dataDir: string, name: string): Promise<string> {
  const folder = path.join(dataDir, "secrets")
  const file = path.join(folder, name)
  await fs.mkdir(folder, { recursive: true, mode: 0o700 })
  try {
    await fs.writeFile(file, randomBytes(48).toString("base64url"), { flag: "wx", mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  }
  const secret = (await fs.readFile(file, "utf8")).trim()
  if (secret.length < 32) throw new Error(`The secret in ${file} is shorter than 32 characters; delete the file to generate a new one.`)
  return secret
}

/**
 * Returns the secret stored in the database's app_settings under `secret:<name>`, creating it once when missing. For
 * a PostgreSQL database that several API instances share: they must sign with one key, and the insert that loses a
 * race at start-up reads the winner's.
 */
export async function loadOrCreateDatabaseSecret(db: Kysely<DatabaseSchema>, name: string): Promise<string> {
  const key = `secret:${name}`
  await db
    .insertInto("app_settings")
    .values({ key, value: sql`to_jsonb(${randomBytes(48).toString("base64url")}::text)`, updated_at: new Date() })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute()
  const row = await db.selectFrom("app_settings").select("value").where("key", "=", key).executeTakeFirstOrThrow()
  const secret = typeof row.value === "string" ? row.value : ""
  if (secret.length < 32) throw new Error(`The secret ${key} in app_settings is shorter than 32 characters; delete the row to generate a new one.`)
  return secret
}
