/**
 * An organisation that enforces single sign-on: every other way in for addresses on its verified domains answers 403
 * SSO_REQUIRED (a password, Google for a known and for a new account, a passkey on its own), its owner excepted, and
 * all of them work again once enforcement is off. Google's tokens come from the Firebase Auth emulator, the provider
 * is oidc-provider on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"

import { hashPassword } from "../../auth/passwords"
import { googleEnv, googleIdToken } from "../../auth/google/google-test-kit"
import { softwarePasskey } from "../../auth/mfa/passkey-test-kit"
import { startDnsStandIn, startTestApp, type DnsStandIn, type TestApp } from "../../test-kit"
import { ssoCompanyKit, startIdentityProvider, type TestIdentityProvider } from "./sso-test-kit"

let dns: DnsStandIn
let provider: TestIdentityProvider
let subject: TestApp

beforeAll(async () => {
  dns = await startDnsStandIn()
  provider = await startIdentityProvider()
  subject = await startTestApp({ ...googleEnv, DNS_SERVERS: dns.address, SSO_ALLOW_INSECURE_ISSUER: "true" }, { clock: Date.now })
})
afterAll(async () => {
  await subject?.close()
  await provider?.close()
  await dns?.close()
})

const { companyWithSso, post, ssoSession } = ssoCompanyKit(() => ({ subject, dns, provider }))
const PASSWORD = "Copper-Kettle-37!"
const setEnforced = (enforced: boolean) => subject.database.db.updateTable("organization_sso").set({ enforced }).execute()
const inject = (method: "GET" | "POST", url: string, payload?: object, token?: string) =>
  subject.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? { authorization: `Bearer ${token}` } : {} })

describe("an organisation that enforces single sign-on", () => {
  it("refuses password sign-in on its domains with SSO_REQUIRED, except for its owner", async () => {
    const { owner, domain } = await companyWithSso(true)
    const passwordHash = await hashPassword(PASSWORD)
    const member = `member@${domain}`
    await ssoSession(member)
    await subject.database.db.updateTable("users").set({ password_hash: passwordHash }).where("email", "=", member).execute()
    await subject.database.db.updateTable("users").set({ email: `owner@${domain}`, password_hash: passwordHash }).where("id", "=", owner.id).execute()

    const refused = await post("/api/auth/login", { email: member, password: PASSWORD })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error).toMatchObject({ code: "SSO_REQUIRED", message: expect.stringContaining("Sign in with SSO") })
    expect((await post("/api/auth/login", { email: `owner@${domain}`, password: PASSWORD })).statusCode).toBe(200)
    await setEnforced(false)
    expect((await post("/api/auth/login", { email: member, password: PASSWORD })).statusCode).toBe(200)
  })

  it("refuses Google sign-in for a known account and a new one on its domains", async () => {
    const { domain } = await companyWithSso(false)
    const known = { sub: `google-known-${Date.now()}`, email: `known@${domain}`, email_verified: true, name: "Known" }
    const acceptTerms = async (idToken: string) => post("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true })
    expect((await acceptTerms(await googleIdToken(known))).statusCode).toBe(201)
    await setEnforced(true)
    const again = await post("/api/auth/google", { idToken: await googleIdToken(known) })
    expect(again.statusCode).toBe(403)
    expect(again.json().error.code).toBe("SSO_REQUIRED")
    const newcomer = await googleIdToken({ sub: `google-new-${Date.now()}`, email: `new@${domain}`, email_verified: true, name: "New" })
    for (const attempt of [await post("/api/auth/google", { idToken: newcomer }), await acceptTerms(newcomer)]) {
      expect(attempt.statusCode).toBe(403)
      expect(attempt.json().error.code).toBe("SSO_REQUIRED")
    }
    expect(await subject.database.db.selectFrom("users").select("id").where("email", "=", `new@${domain}`).execute()).toEqual([])
    await setEnforced(false)
    expect((await post("/api/auth/google", { idToken: await googleIdToken(known) })).statusCode).toBe(200)
  })

  it("refuses a passkey on its own, as a way in beside the provider", async () => {
    const { domain } = await companyWithSso(false)
    const session = await ssoSession(`keys@${domain}`)
    const passkey = softwarePasskey("localhost")
    const options = await inject("POST", "/api/auth/passkeys/registration-options", {}, session.token)
    expect(options.statusCode, options.body).toBe(200)
    const added = await inject("POST", "/api/auth/passkeys", { name: "Laptop", response: passkey.register(options.json().data, "http://localhost:8787") }, session.token)
    expect(added.statusCode, added.body).toBe(201)
    const signIn = async () => inject("POST", "/api/auth/passkeys/sign-in", { response: passkey.signIn((await inject("POST", "/api/auth/passkeys/authentication-options")).json().data, "http://localhost:8787") })
    await setEnforced(true)
    const refused = await signIn()
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error.code).toBe("SSO_REQUIRED")
    await setEnforced(false)
    expect((await signIn()).statusCode).toBe(200)
  })
})
