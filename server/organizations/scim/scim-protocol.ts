/**
 * What SCIM 2.0 itself defines, apart from our data: its error (RFC 7644 §3.12), the filters GET /Users understands
 * (§3.4.2.2, the equality ones identity providers send to find a person before creating them), and the discovery
 * documents (RFC 7643 §5 to 7), the same for every organisation.
 */
import { SCIM_ERROR_SCHEMA, SCIM_MAX_RESULTS, SCIM_USER_SCHEMA } from "~core/scim"

import type { MemberFilter } from "./scim-store"

export const SCIM_PREFIX = "/scim/v2"

/** scimType values of RFC 7644 §3.12 this server answers. */
export type ScimType = "uniqueness" | "invalidFilter" | "invalidValue" | "invalidSyntax" | "invalidPath" | "noTarget" | "mutability" | "tooMany"

/** A refusal in SCIM's own shape: its routes never answer our {success, error} wrapper. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
    /** Seconds, for a 429's Retry-After. */
    readonly retryAfter?: number
  ) {
    super(detail)
    this.name = "ScimError"
  }
}

export const scimErrorBody = (status: number, detail: string, scimType?: ScimType) => ({ schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail })

/** 400 invalidValue naming each problem of a body, as zod found them. */
export function invalidBody(error: { issues: { path: PropertyKey[]; message: string }[] }): ScimError {
  const detail = error.issues.map((issue) => (issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message)).join("; ")
  return new ScimError(400, detail, "invalidValue")
}

export const noSuchUser = () => new ScimError(404, "No user of your organisation has this id.")

const FILTER = /^([A-Za-z][\w.:-]*)\s+eq\s+"((?:[^"\\]|\\.)*)"$/i
const FILTERED_ATTRIBUTES: Record<string, Exclude<MemberFilter, null>["attribute"]> = {
  username: "userName",
  "emails.value": "userName",
  externalid: "externalId",
  id: "id"
}

/** The filter of GET /Users: `userName eq "…"`, `emails.value eq "…"`, `externalId eq "…"` or `id eq "…"`; else 400 invalidFilter. */
export function parseFilter(filter: string | undefined): MemberFilter {
  if (!filter) return null
  const match = FILTER.exec(filter.trim())
  const attribute = match && FILTERED_ATTRIBUTES[match[1]!.replace(`${SCIM_USER_SCHEMA}:`, "").toLowerCase()]
  if (!match || !attribute) {
    throw new ScimError(400, 'This filter is not supported. Use userName eq "…", emails.value eq "…", externalId eq "…" or id eq "…".', "invalidFilter")
  }
  return { attribute, value: match[2]!.replace(/\\(.)/g, "$1") }
}

const attribute = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra
})

/** The User schema as this server keeps it (RFC 7643 §4.1): the attributes it stores and answers. */
export const USER_SCHEMA_DOCUMENT = {
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
  id: SCIM_USER_SCHEMA,
  name: "User",
  description: "A member of the organisation; userName is their e-mail address.",
  attributes: [
    attribute("userName", "string", { required: true, uniqueness: "server", description: "The person's e-mail address, unique across the service." }),
    attribute("name", "complex", {
      subAttributes: [attribute("formatted", "string"), attribute("givenName", "string"), attribute("familyName", "string")]
    }),
    attribute("displayName", "string"),
    attribute("emails", "complex", {
      multiValued: true,
      description: "The first (or primary) address is the account's; it equals userName.",
      subAttributes: [attribute("value", "string"), attribute("type", "string"), attribute("primary", "boolean")]
    }),
    attribute("active", "boolean", { description: "false suspends the member: no session or API key of theirs works, and they draw nothing from the pool." }),
    attribute("externalId", "string", { caseExact: true })
  ],
  meta: { resourceType: "Schema", location: `${SCIM_PREFIX}/Schemas/${SCIM_USER_SCHEMA}` }
}

export const USER_RESOURCE_TYPE = {
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
  id: "User",
  name: "User",
  endpoint: "/Users",
  description: "The organisation's members",
  schema: SCIM_USER_SCHEMA,
  meta: { resourceType: "ResourceType", location: `${SCIM_PREFIX}/ResourceTypes/User` }
}

export const SERVICE_PROVIDER_CONFIG = {
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: "oauthbearertoken",
      name: "OAuth Bearer Token",
      description: "A SCIM token of the organisation, created by its owner: Authorization: Bearer iqa_scim_…",
      primary: true
    }
  ],
  meta: { resourceType: "ServiceProviderConfig", location: `${SCIM_PREFIX}/ServiceProviderConfig` }
}

/** A ListResponse of static documents (Schemas, ResourceTypes), which GET answers whole. */
export const listOf = (resources: object[]) => ({
  schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources
})
