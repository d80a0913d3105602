/**
 * Personal API keys (Pro and Enterprise): what a key looks like, how many an account may hold, and the shapes the
 * /api/keys routes take and answer. The server and the dashboard read the same rules from here.
 */
import * as z from "zod"

/** Every key starts so, which tells it apart from a session token in a header and to secret scanners. */
export const API_KEY_PREFIX = "iqa_"
/** The part of a key that is shown again after its creation: the prefix and the next 8 characters. */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8
/** Random bytes behind each key (256 bits), written in base62. */
export const API_KEY_RANDOM_BYTES = 32
/** Keys an account may hold at once; revoked ones do not count. */
export const MAX_ACTIVE_API_KEYS = 10
export const API_KEY_NAME_MAX_LENGTH = 60

export const createApiKeySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "Name the key, for example after the script that uses it")
    .max(API_KEY_NAME_MAX_LENGTH)
    // The name goes into the e-mails' subjects: one line of text.
    .regex(/^[^\p{Cc}]*$/u, "The name must be one line of text"),
  /** Proof that the account's owner is at the keyboard: required when the account has a password. */
  currentPassword: z.string().max(1024).optional()
})
export type CreateApiKeyRequest = z.infer<typeof createApiKeySchema>

export const apiKeySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to tell keys apart; never the key. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable()
})
export type ApiKeySummary = z.infer<typeof apiKeySummarySchema>

/** The answer to a creation: the only time the whole key is given. */
export const createdApiKeySchema = apiKeySummarySchema.omit({ lastUsedAt: true }).extend({ key: z.string() })
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>

/** Per key, on every instance: calls in any 60 seconds, and calls being answered at once. */
export const API_KEY_RATE_LIMIT = { requests: 60, windowMs: 60_000 } as const
export const API_KEY_MAX_IN_FLIGHT = 5
/**
 * Per account, across all its keys and on every instance: more keys are for telling uses apart, not for more of the
 * servers (ten keys would otherwise be 50 calls at once and 600 a minute). Two keys at full pace reach them.
 */
export const API_ACCOUNT_RATE_LIMIT = { requests: 120, windowMs: 60_000 } as const
export const API_ACCOUNT_MAX_IN_FLIGHT = 10

/** The public API's endpoints, as GET /api/v1/usage counts them. */
export const PUBLIC_API_ENDPOINTS = ["ocr", "faces", "objects", "ask", "translate"] as const
export type PublicApiEndpoint = (typeof PUBLIC_API_ENDPOINTS)[number]

export const apiUsageSchema = z.object({
  /** The UTC month counted, as "2026-11". */
  month: z.string(),
  /** The plan's monthly quota of questions and translations, which the API's ask and translate draw from too. */
  quota: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
  byEndpoint: z.record(z.enum(PUBLIC_API_ENDPOINTS), z.number().int()),
  byKey: z.array(z.object({ id: z.string(), prefix: z.string(), name: z.string(), calls: z.number().int() }))
})
export type ApiUsage = z.infer<typeof apiUsageSchema>

/** GET /api/keys/usage: how many days back the dashboard's chart may reach, today included. */
export const API_KEY_USAGE_DEFAULT_DAYS = 30
export const API_KEY_USAGE_MAX_DAYS = 90

export const apiKeyUsageQuerySchema = z.strictObject({
  days: z.coerce.number().int().min(1).max(API_KEY_USAGE_MAX_DAYS).default(API_KEY_USAGE_DEFAULT_DAYS)
})
export type ApiKeyUsageQuery = z.infer<typeof apiKeyUsageQuerySchema>

const calls = z.number().int().min(0)
/** Answered calls per endpoint, every endpoint present. */
export const endpointCallsSchema = z.object({ ocr: calls, faces: calls, objects: calls, ask: calls, translate: calls }) satisfies z.ZodType<Record<PublicApiEndpoint, number>>
export type EndpointCalls = z.infer<typeof endpointCallsSchema>

/** An account's answered calls, all its keys together (revoked ones included), per UTC day and endpoint. */
export const apiKeyUsageSchema = z.object({
  /** Every day of the range, oldest first and today last, zeros included; `day` as "2026-11-27". */
  days: z.array(endpointCallsSchema.extend({ day: z.string() })),
  totals: endpointCallsSchema
})
export type ApiKeyUsage = z.infer<typeof apiKeyUsageSchema>
