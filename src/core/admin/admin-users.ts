/**
 * The admin panel's accounts (/admin/users, issue 27): what GET /api/admin/users takes and answers, a user's page
 * (GET /api/admin/users/:id) and the changes an admin makes (PATCH /api/admin/users/:id). Read by the server, which
 * parses with these schemas, and by the site, which reads the answers with them.
 */
import * as z from "zod"

import { subscriptionSchema } from "../billing/billing"
import { ORGANIZATION_ROLES } from "../organizations"
import { PLAN_IDS } from "../billing/plans"
import { AUTH_PROVIDERS, ROLES } from "../user"

export const ADMIN_USERS_PAGE_SIZE = 50
export const ADMIN_USERS_QUERY_MAX_LENGTH = 200
export const ADMIN_USER_SORTS = ["created", "lastSignIn"] as const
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number]

/** "true" or "false" in a query string; anything else is refused, never read as false. */
const queryBoolean = (name: string) =>
  z
    .enum(["true", "false"], { message: `${name} must be true or false` })
    .transform((value) => value === "true")
    .optional()

/** GET /api/admin/users: the search (part of an address or a name, any case), the filters, the order and the page. */
export const adminUsersQuerySchema = z.strictObject({
  query: z.string().trim().max(ADMIN_USERS_QUERY_MAX_LENGTH, `Search for at most ${ADMIN_USERS_QUERY_MAX_LENGTH} characters`).optional(),
  plan: z.enum(PLAN_IDS, { message: "plan must be free, pro or enterprise" }).optional(),
  role: z.enum(ROLES, { message: "role must be user or admin" }).optional(),
  verified: queryBoolean("verified"),
  disabled: queryBoolean("disabled"),
  /** Newest first either way; accounts that never signed in come last by last sign-in. */
  sort: z.enum(ADMIN_USER_SORTS, { message: "sort must be created or lastSignIn" }).default("created"),
  page: z.coerce.number({ message: "page must be a number" }).int("page must be a whole number").min(1, "Pages count from 1").max(1_000_000).default(1)
})
export type AdminUsersQuery = z.output<typeof adminUsersQuerySchema>

/** An account as the list shows it. Dates are ISO strings. */
export const adminUserSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  /** The plan the account has now: Free once a subscription is cancelled, unpaid or paused. */
  plan: z.enum(PLAN_IDS),
  verified: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable()
})
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>

export const adminUserListSchema = z.object({
  users: z.array(adminUserSummarySchema),
  /** Accounts matching the search and filters, on all pages. */
  total: z.number().int(),
  page: z.number().int()
})
export type AdminUserList = z.infer<typeof adminUserListSchema>

export const adminUserSessionSchema = z.object({
  id: z.string(),
  /** The website's session, or the extension's opened from one. */
  client: z.enum(["site", "extension"]),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  expiresAt: z.string()
})
export type AdminUserSession = z.infer<typeof adminUserSessionSchema>

/** A user's page: everything an admin needs to help them, and nothing secret (no hash, no token). */
export const adminUserDetailSchema = z.object({
  user: adminUserSummarySchema.extend({
    disabledAt: z.string().nullable(),
    /** The monthly AI request limit an admin set (what an Enterprise account gets); null: unlimited. */
    requestLimit: z.number().int().nullable()
  }),
  signInMethods: z.array(z.enum(AUTH_PROVIDERS)),
  subscription: subscriptionSchema,
  /** This month's AI requests: the account's own, or its organisation's pool when it draws from one. */
  usage: z.object({
    month: z.string(),
    used: z.number().int(),
    limit: z.number().int().nullable(),
    source: z.enum(["own", "pool"])
  }),
  /** The live sessions, newest first. */
  sessions: z.array(adminUserSessionSchema),
  organization: z.object({ id: z.string(), name: z.string(), role: z.enum(ORGANIZATION_ROLES) }).nullable()
})
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>

export const adminUserParamsSchema = z.strictObject({ id: z.uuid({ message: "Not a user's id" }) })

/** PATCH /api/admin/users/:id: the role, whether the account is disabled, or both. */
export const adminUserUpdateSchema = z
  .strictObject({
    role: z.enum(ROLES, { message: "role must be user or admin" }).optional(),
    disabled: z.boolean({ message: "disabled must be true or false" }).optional()
  })
  .refine((update) => update.role !== undefined || update.disabled !== undefined, "Send a role or disabled to change")
export type AdminUserUpdate = z.infer<typeof adminUserUpdateSchema>

/** POST /api/admin/users/:id/resend-verification. */
export const verificationResentSchema = z.object({ sent: z.literal(true), email: z.string() })
/** POST /api/admin/users/:id/end-sessions: how many live sessions were ended. */
export const sessionsEndedSchema = z.object({ ended: z.number().int() })

/** What a disabled account is told when it signs in: plain words, and who can help. */
export const ACCOUNT_DISABLED_MESSAGE = "This account has been disabled. Contact support if you think this is a mistake."
export const LAST_ADMIN_MESSAGE = "This is the last active admin: make another account an admin first."
