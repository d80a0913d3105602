/**
 * An organisation's e-mail domains (Enterprise): claimed by its owner, proved with a DNS TXT record, verified by one
 * organisation at most. What the server and the site share: the record to add, the limits, the schemas.
 */
import * as z from "zod"

/** The record's name is this label under the domain; its value, this prefix and the claim's token. */
export const DOMAIN_RECORD_LABEL = "_image-query-ai"
export const DOMAIN_RECORD_PREFIX = "iqa-verify="
/** Domains an organisation may claim. */
export const MAX_ORGANIZATION_DOMAINS = 10

const HOSTNAME = /^(?=.{4,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!\d+$)[a-z0-9-]{2,63}$/

/**
 * A domain as a person types it ("Example.COM.", "bücher.de", "https://example.com/"), in the form DNS knows it
 * (lower case, punycode, no trailing dot), or null when it is no registrable name (an address, one label, a port).
 */
export function normalDomain(typed: string): string | null {
  const text = typed.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/\/.*$/, "").replace(/\.$/, "")
  if (!text || /[:@\s]/.test(text)) return null
  let host: string
  try {
    host = new URL(`http://${text}`).hostname
  } catch {
    return null
  }
  return HOSTNAME.test(host) ? host : null
}

export const domainField = z
  .string()
  .max(300)
  .transform((typed, context) => {
    const domain = normalDomain(typed)
    if (!domain) {
      context.addIssue({ code: "custom", message: "Enter a domain name such as example.com" })
      return z.NEVER
    }
    return domain
  })

export const addDomainRequestSchema = z.strictObject({ domain: domainField })
export const domainParamsSchema = z.strictObject({ domain: domainField })

export const domainRecordSchema = z.object({ type: z.literal("TXT"), name: z.string(), value: z.string() })
export const organizationDomainSchema = z.object({
  domain: z.string(),
  verified: z.boolean(),
  verifiedAt: z.string().nullable(),
  /** The TXT record that proves the domain: still shown once verified, as the proof to keep in place. */
  record: domainRecordSchema
})
export type OrganizationDomain = z.infer<typeof organizationDomainSchema>
export const organizationDomainListSchema = z.object({ domains: z.array(organizationDomainSchema) })

export const domainRecordFor = (domain: string, token: string) => ({ type: "TXT" as const, name: `${DOMAIN_RECORD_LABEL}.${domain}`, value: `${DOMAIN_RECORD_PREFIX}${token}` })
