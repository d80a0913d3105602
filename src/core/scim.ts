/**
 * SCIM 2.0 provisioning (RFC 7643 and 7644): an organisation's identity provider creates, changes, suspends and removes
 * its people through /scim/v2 with a bearer token of the organisation. The bodies as Okta, Microsoft Entra ID and
 * others send them: unknown attributes are ignored (each provider sends its own extras), booleans may come as
 * strings ("False", as Entra sends them), and a user's userName is their e-mail address.
 */
import * as z from "zod"

export const SCIM_USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User"
export const SCIM_LIST_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
export const SCIM_ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error"
export const SCIM_PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
export const SCIM_CONTENT_TYPE = "application/scim+json"

/** Live SCIM tokens an organisation may hold at once: one per identity provider, with room to rotate. */
export const MAX_SCIM_TOKENS = 5
/** The most users one page of GET /Users answers (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 100
/** Calls an organisation's tokens may make together in a sliding minute: an identity provider's sync, not a flood. */
export const SCIM_RATE_LIMIT = { requests: 600, windowMs: 60_000 } as const
/** The prefix of a SCIM token: recognisable in a leak report, and never taken for a session or an API key. */
export const SCIM_TOKEN_PREFIX = "iqa_scim_"

export const ACCOUNT_SUSPENDED_MESSAGE = "Your organisation has suspended your access. Ask its administrators."

/** A boolean, or its text in any case ("True", "false"): Microsoft Entra ID sends booleans as strings in PATCH. */
export const scimBoolean = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["true", "false"], { message: "use true or false" }))
    .transform((text) => text === "true")
])

const shortText = (max: number) => z.string().trim().max(max)

const scimNameSchema = z.object({
  givenName: shortText(100).nullish(),
  familyName: shortText(100).nullish(),
  formatted: shortText(100).nullish()
})

const scimEmailSchema = z.object({
  value: z.email({ message: "use an e-mail address" }).max(254),
  type: shortText(40).nullish(),
  primary: scimBoolean.nullish()
})

/** POST /Users and PUT /Users/:id: a user, its userName the person's e-mail address. */
export const scimUserSchema = z.object({
  schemas: z.array(z.string().max(200)).max(10).optional(),
  userName: z.email({ message: "userName must be the person's e-mail address" }).max(254),
  name: scimNameSchema.nullish(),
  displayName: shortText(100).nullish(),
  emails: z.array(scimEmailSchema).max(10).nullish(),
  active: scimBoolean.nullish(),
  externalId: shortText(200).nullish()
})
export type ScimUserInput = z.infer<typeof scimUserSchema>

/** One operation of a PATCH: its op in any case ("Replace", as Entra sends it), a path or not (Okta sends a value object). */
export const scimPatchOperationSchema = z.object({
  op: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["add", "replace", "remove"], { message: "use add, replace or remove" })),
  path: z.string().trim().min(1).max(300).optional(),
  value: z.unknown().optional()
})
export type ScimPatchOperation = z.infer<typeof scimPatchOperationSchema>

export const scimPatchSchema = z.object({
  schemas: z.array(z.string().max(200)).max(10).optional(),
  Operations: z.array(scimPatchOperationSchema).min(1, "send at least one operation").max(50)
})

/** GET /Users: a filter, and the page (startIndex counts from 1). */
export const scimListQuerySchema = z.object({
  filter: z.string().trim().max(500).optional(),
  startIndex: z.coerce.number().int().catch(1).transform((index) => Math.max(1, index)).default(1),
  count: z.coerce
    .number()
    .int()
    .catch(SCIM_MAX_RESULTS)
    .transform((count) => Math.min(SCIM_MAX_RESULTS, Math.max(0, count)))
    .default(SCIM_MAX_RESULTS)
})

export const scimUserParamsSchema = z.object({ id: z.string().max(100) })

/** A SCIM token as the organisation's page lists it: never the token itself, which is shown once when created. */
export const scimTokenSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable().meta({ description: "The e-mail address of who created it, while the account exists" }),
  lastUsedAt: z.string().nullable()
})
export type ScimToken = z.infer<typeof scimTokenSchema>

export const createdScimTokenSchema = scimTokenSchema.extend({ token: z.string().meta({ description: "Shown this once: only its hash is stored" }) })
export const scimTokenListSchema = z.object({ tokens: z.array(scimTokenSchema) })
export const scimTokenParamsSchema = z.object({ id: z.string().max(100) })
