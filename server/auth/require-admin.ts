/**
 * The admin routes' hook (every /api/admin route, the feedback inbox's and the password policy's changes): a signed-in
 * admin, and with ADMIN_MFA=required (production's default) one with a second factor. An admin session reads and
 * changes every account, so in production a stolen password alone must not open it.
 *
 * Its own module, not authenticate.ts: the two-step feature imports authenticate.ts, so authenticate.ts cannot import
 * it back (no import cycles).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { ApiError } from "../http/errors"
import { requireUser } from "./authenticate"
import { hasSecondFactor } from "./mfa/mfa-service"

export const ADMIN_MFA_REQUIRED_MESSAGE = "Turn on two-step sign-in on your dashboard to use the admin panel."

/** preHandler: 401 without a valid token, 403 FORBIDDEN for a user who is not an admin, 403 MFA_ENROLLMENT_REQUIRED for an admin without a second factor when ADMIN_MFA=required. */
export async function requireAdmin(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await requireUser.call(this, request, reply)
  const user = request.auth!.user
  if (user.role !== "admin") throw new ApiError(403, "FORBIDDEN", "You do not have permission to do this.")
  // Read on every call, as the role is: turning two-step sign-in off closes the admin routes at once.
  if (this.config.adminMfa === "required" && !(await hasSecondFactor(this.database.db, user.id))) {
    throw new ApiError(403, "MFA_ENROLLMENT_REQUIRED", ADMIN_MFA_REQUIRED_MESSAGE)
  }
}
