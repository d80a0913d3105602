import type { FastifyInstance } from "fastify"

import { ApiError } from "../http/errors"
import { enforcePasswordPolicy } from "../password-policy/password-policy-service"
import { loadPasswordPolicy } from "../password-policy/password-policy-store"
import { createPasswordAccount, setPassword } from "./account-service"
import { verifyPassword } from "./passwords"
import { findUserByEmail, makeVerifiedAdmin, normaliseEmail } from "./user-store"

/**
 * ADMIN_EMAIL / ADMIN_PASSWORD: makes sure this verified admin account exists with this password.
 * The password must meet the policy unless the policy's allowOverride lets the operator through,
 * with a warning in the log.
 */
export async function ensureAdminAccount(app: FastifyInstance, admin: { email: string; password: string }, attempt = 1): Promise<void> {
  const db = app.database.db
  const email = normaliseEmail(admin.email)
  const existing = await findUserByEmail(db, email)
  const now = new Date(app.clock())

  if (existing?.password_hash && (await verifyPassword(existing.password_hash, admin.password))) {
    await makeVerifiedAdmin(db, existing.id, now)
    return
  }

  try {
    await enforcePasswordPolicy(app, admin.password, { email, name: existing?.name ?? "Admin", userId: existing?.id }, "admin-bootstrap")
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const problems = error.extra.details?.join("; ") ?? error.message
    if (!(await loadPasswordPolicy(app)).allowOverride) {
      throw new Error(`ADMIN_PASSWORD does not meet the password policy: ${problems}`)
    }
    app.log.warn({ problems }, "ADMIN_PASSWORD does not meet the password policy; accepted because the policy allows an override")
  }

  if (existing) {
    await setPassword(app, existing.id, admin.password)
    await makeVerifiedAdmin(db, existing.id, now)
    return
  }
  const created = await createPasswordAccount(app, { email, name: "Admin", role: "admin", emailVerifiedAt: now, password: admin.password })
  if (!created) {
    // Another instance starting at the same moment made it (several share one database): it exists now, so go on as
    // for an existing account. Twice in a row means something else is wrong.
    if (attempt === 1) return ensureAdminAccount(app, admin, 2)
    throw new Error(`ADMIN_EMAIL ${email}: an account with this address appeared while the admin account was being created`)
  }
  app.log.info({ email }, "admin account created from ADMIN_EMAIL")
}
