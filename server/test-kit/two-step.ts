/**
 * Two-step sign-in turned on through the API, as a person does it on the dashboard: for the tests of what it opens
 * (the admin routes under ADMIN_MFA=required, an organisation's pool under requireMfa). The code is computed as an
 * authenticator app would.
 */
import type { FastifyInstance } from "fastify"

import { codeAt } from "../auth/mfa/authenticator"

/** Sets up and confirms an authenticator app for the session's account; throws when the server refuses either step. */
export async function turnOnTwoStep(app: FastifyInstance, token: string, currentPassword?: string): Promise<void> {
  const post = async (url: string, payload: object) => {
    const response = await app.inject({ method: "POST", url, headers: { authorization: `Bearer ${token}` }, payload })
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`)
    return response.json() as { data: Record<string, unknown> }
  }
  const setup = await post("/api/auth/mfa/totp/setup", currentPassword === undefined ? {} : { currentPassword })
  await post("/api/auth/mfa/totp/enable", { code: codeAt(String(setup.data.secret), app.clock()) })
}
