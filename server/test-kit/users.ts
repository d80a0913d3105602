/** Users made straight in the database, for the tests that need an account but not the way it was made. */
import type { FastifyInstance } from "fastify"

import { signIn } from "../auth/account-service"

let userCounter = 0

/** A verified user on the given plan, signed in: its id and access token. */
export async function signedInUser(
  app: FastifyInstance,
  plan: "free" | "pro" | "enterprise" = "free",
  requestLimit: number | null = null
): Promise<{ id: string; token: string }> {
  const user = await app.database.db
    .insertInto("users")
    .values({
      email: `asker${++userCounter}-${Math.random().toString(36).slice(2)}@example.com`,
      name: "Grace Hopper",
      password_hash: null,
      email_verified_at: new Date(app.clock()),
      google_uid: null,
      terms_accepted_at: new Date(app.clock()),
      plan_id: plan,
      request_limit: requestLimit
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const { token } = await signIn(app, user)
  return { id: user.id, token }
}

/** An API key made as its owner makes one (POST /api/keys, from a website session): the key, shown once, and its id. */
export async function createdApiKey(app: FastifyInstance, token: string, name = "script"): Promise<{ key: string; id: string }> {
  const created = await app.inject({ method: "POST", url: "/api/keys", headers: { authorization: `Bearer ${token}` }, payload: { name } })
  if (created.statusCode !== 201) throw new Error(`POST /api/keys answered ${created.statusCode}: ${created.body}`)
  return created.json().data
}
