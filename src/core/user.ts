import * as z from "zod"

import { effectivePlanOf } from "./billing/billing"
import { membershipSchema } from "./organizations"
import { PLAN_IDS, type PlanId } from "./billing/plans"

export const ROLES = ["admin", "user"] as const
export type Role = (typeof ROLES)[number]

export const AUTH_PROVIDERS = ["email", "google"] as const

/** The user record, as the API returns it and the browser stores it. */
export const userSchema = z.object({
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  provider: z.enum(AUTH_PROVIDERS),
  providerId: z.string().optional(),
  subscription: z
    .object({
      plan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }),
      status: z.string()
    })
    .optional(),
  /** The organisation the account belongs to, with the brand its members' extension shows; null for none. */
  organization: membershipSchema.nullable().optional()
})

export type User = z.infer<typeof userSchema>

/** The user as the API answers it: the shared record plus its id, verification state and creation time (ISO). */
export const publicUserSchema = userSchema.extend({ id: z.string(), emailVerified: z.boolean(), createdAt: z.string() })
export type PublicUser = z.infer<typeof publicUserSchema>

/** The plan the stored user object says the account has: Free when it carries none, or a cancelled one. */
export function planIdOfUser(user: User): PlanId {
  return user.subscription ? effectivePlanOf(user.subscription.plan.id, user.subscription.status) : "free"
}

/** The three local-storage items of a browser session. */
export const SESSION_STORAGE_KEYS = {
  authToken: "authToken",
  refreshToken: "refreshToken",
  user: "user"
} as const
