import { randomBytes } from "node:crypto"
import fs from "node:fs/promises"
import path from "node:path"

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
