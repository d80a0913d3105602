/**
 * The TXT records of a name, asked of the system's DNS servers or of DNS_SERVERS (tests, private networks). A name
 * without records and a name that does not exist are both "none"; a server that does not answer is "unreachable",
 * so that the person is told to try again rather than that the record is missing.
 */
import { Resolver } from "node:dns/promises"

export type TxtAnswer = { outcome: "found"; values: string[] } | { outcome: "none" } | { outcome: "unreachable"; code: string }

const NO_RECORDS = new Set(["ENODATA", "ENOTFOUND", "NXDOMAIN"])

export async function txtRecords(servers: readonly string[], name: string): Promise<TxtAnswer> {
  // Two tries of 2 s each: a verify click waits at most a few seconds for a server that does not answer.
  const resolver = new Resolver({ timeout: 2_000, tries: 2 })
  if (servers.length > 0) resolver.setServers([...servers])
  try {
    // A record's value may come in chunks of 255 characters: they are one value.
    const values = (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""))
    return values.length > 0 ? { outcome: "found", values } : { outcome: "none" }
  } catch (error) {
    const code = (error as { code?: string }).code ?? "EUNKNOWN"
    return NO_RECORDS.has(code) ? { outcome: "none" } : { outcome: "unreachable", code }
  }
}
