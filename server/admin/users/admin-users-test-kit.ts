/**
 * What the admin users tests share: the account tests' app (authTestKit: ADMIN_EMAIL's admin, a clock of their own)
 * with a PATCH-capable call, the admin's token, and the audit rows written about an account.
 */
import { authTestKit, STRONG } from "../../auth/auth-test-kit"

export const ROOT = { email: "root@example.com", password: "Stone-Harvest-2026!" }

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

export function adminUsersTestKit() {
  const kit = authTestKit()

  const call = async (method: Method, url: string, token?: string, body?: unknown, ip = kit.nextIp()) => {
    const response = await kit.subject.app.inject({
      method,
      url,
      remoteAddress: ip,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body === undefined ? {} : { payload: body as object })
    })
    return { status: response.statusCode, body: response.json() }
  }

  const db = () => kit.subject.database.db

  return {
    kit,
    call,
    db,
    /** A fresh session of ADMIN_EMAIL's admin. */
    async rootToken(): Promise<string> {
      const answer = await kit.login(ROOT.email, ROOT.password)
      if (answer.status !== 200) throw new Error(`the admin could not sign in: ${JSON.stringify(answer.body)}`)
      return answer.body.data.token as string
    },
    /** A verified account with a password, signed in, and its id. */
    async person(password = STRONG) {
      const signedUp = await kit.signedUpUser(password)
      const { id } = await db().selectFrom("users").select("id").where("email", "=", signedUp.email).executeTakeFirstOrThrow()
      return { ...signedUp, id, password }
    },
    /** An admin made by the database (how it became one is not what these tests are about), signed in. */
    async admin() {
      const signedUp = await kit.signedUpUser()
      const { id } = await db().updateTable("users").set({ role: "admin" }).where("email", "=", signedUp.email).returning("id").executeTakeFirstOrThrow()
      return { ...signedUp, id }
    },
    /** This feature's audit rows about an account, oldest first (other features write their own kinds). */
    auditOf(subjectId: string) {
      return db().selectFrom("audit_events").select(["kind", "actor_id", "subject_id", "detail", "ip"]).where("subject_id", "=", subjectId).where("kind", "like", "admin.%").orderBy("id").execute()
    }
  }
}
