/**
 * Passkeys through the API with a software authenticator (passkey-test-kit.ts) and the real verification of
 * @simplewebauthn/server: added with the proof of the person and told by e-mail, a sign-in on their own and a second
 * step, refused from another origin, without user verification, with a counter that goes backwards, with a challenge
 * used or expired, and once under a burst of 20. Runs on the embedded database and, in api-postgres, PostgreSQL.
 */
import { describe, expect, it } from "vitest"

import { WEBAUTHN_CHALLENGE_LIFETIME_MS } from "~core/passkeys"

import { authTestKit, STRONG } from "../auth-test-kit"
import { softwarePasskey, type SoftwarePasskey } from "./passkey-test-kit"

const kit = authTestKit()
const { call, login, signedUpUser } = kit
const ORIGIN = "http://localhost:8787"
const RP_ID = "localhost"

type User = Awaited<ReturnType<typeof signedUpUser>>

async function registrationOptions(user: User) {
  const answer = await call("POST", "/api/auth/passkeys/registration-options", { token: user.token, body: { currentPassword: STRONG } })
  expect(answer.status).toBe(200)
  return answer.body.data
}

async function addPasskey(user: User, name = "Laptop"): Promise<SoftwarePasskey> {
  const passkey = softwarePasskey(RP_ID)
  const added = await call("POST", "/api/auth/passkeys", { token: user.token, body: { name, response: passkey.register(await registrationOptions(user), ORIGIN) } })
  expect(added.status).toBe(201)
  return passkey
}

async function signInOptions() {
  const answer = await call("POST", "/api/auth/passkeys/authentication-options")
  expect(answer.status).toBe(200)
  return answer.body.data
}

const signIn = async (passkey: SoftwarePasskey, extra: object = {}) =>
  call("POST", "/api/auth/passkeys/sign-in", { body: { response: passkey.signIn(await signInOptions(), ORIGIN), ...extra } })

describe("passkeys", () => {
  it("are added with the password, listed, sign in with no address typed, become the second step of a password sign-in, and are removed", async () => {
    const user = await signedUpUser()
    expect((await call("POST", "/api/auth/passkeys/registration-options", { token: user.token, body: { currentPassword: "wrong" } })).body.error.code).toBe("INVALID_CREDENTIALS")
    const options = await registrationOptions(user)
    expect(options).toMatchObject({ rp: { id: RP_ID, name: "Image Query AI" }, user: { name: user.email }, authenticatorSelection: { residentKey: "required", userVerification: "required" } })

    const passkey = await addPasskey(user, "  Laptop  ")
    const listed = await call("GET", "/api/auth/passkeys", { token: user.token })
    expect(listed.body.data.passkeys).toEqual([{ id: expect.any(String), name: "Laptop", createdAt: new Date(kit.now).toISOString(), lastUsedAt: null }])
    expect((await call("GET", "/api/auth/mfa", { token: user.token })).body.data).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: 1 })
    expect((await kit.mailTo(user.email)).map((message) => message.subject)).toContain("A passkey 'Laptop' was added")

    const signedIn = await signIn(passkey)
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.data).toMatchObject({ user: { email: user.email }, token: expect.any(String), refreshToken: expect.any(String) })
    expect((await call("GET", "/api/auth/passkeys", { token: signedIn.body.data.token })).body.data.passkeys[0].lastUsedAt).toBe(new Date(kit.now).toISOString())

    // The passkey is a second factor: the password alone no longer opens a session, the passkey ends the step.
    const first = await login(user.email)
    expect(first.body.data).toEqual({ mfaRequired: true, mfaToken: expect.any(String), methods: ["passkey"] })
    const other = await addPasskey(await signedUpUser(), "Other person's")
    expect((await signIn(other, { mfaToken: first.body.data.mfaToken })).body.error.code).toBe("PASSKEY_SIGN_IN_FAILED")
    const second = await signIn(passkey, { mfaToken: first.body.data.mfaToken })
    expect(second.status).toBe(200)
    expect(second.body.data.user.email).toBe(user.email)
    expect((await call("POST", "/api/auth/mfa/verify", { body: { mfaToken: first.body.data.mfaToken, code: "123456" } })).body.error.code).toBe("MFA_TOKEN_INVALID")

    const id = listed.body.data.passkeys[0].id as string
    expect((await call("DELETE", `/api/auth/passkeys/${id}`, { token: user.token, body: {} })).status).toBe(400)
    expect((await call("DELETE", "/api/auth/passkeys/not-an-id", { token: user.token, body: { currentPassword: STRONG } })).status).toBe(400)
    expect((await call("DELETE", `/api/auth/passkeys/${id}`, { token: user.token, body: { currentPassword: STRONG } })).status).toBe(200)
    expect((await call("DELETE", `/api/auth/passkeys/${id}`, { token: user.token, body: { currentPassword: STRONG } })).status).toBe(404)
    expect((await kit.mailTo(user.email)).map((message) => message.subject)).toContain("A passkey 'Laptop' was removed")
    expect((await signIn(passkey)).body.error.code).toBe("PASSKEY_SIGN_IN_FAILED")
    expect((await login(user.email)).body.data.token).toEqual(expect.any(String))

    const audit = await kit.subject.database.db.selectFrom("audit_events").select("kind").where("actor_id", "=", signedIn.body.data.user.id as string).execute()
    expect(audit.map((row) => row.kind)).toEqual(expect.arrayContaining(["passkey.added", "passkey.removed"]))
  })

  it("refuses another origin, an authenticator that did not verify the person, and options used, expired or of another account", async () => {
    const user = await signedUpUser()
    const passkey = softwarePasskey(RP_ID)
    const add = async (response: object, token = user.token) => call("POST", "/api/auth/passkeys", { token, body: { name: "Key", response } })
    expect((await add(passkey.register(await registrationOptions(user), "http://evil.example"))).body.error.code).toBe("PASSKEY_INVALID")
    expect((await add(passkey.register(await registrationOptions(user), ORIGIN, { userVerified: false }))).body.error.code).toBe("PASSKEY_INVALID")
    const someoneElse = await signedUpUser()
    expect((await add(passkey.register(await registrationOptions(user), ORIGIN), someoneElse.token)).body.error.code).toBe("PASSKEY_CHALLENGE_INVALID")
    const late = passkey.register(await registrationOptions(user), ORIGIN)
    kit.now += WEBAUTHN_CHALLENGE_LIFETIME_MS + 1
    expect((await add(late)).body.error.code).toBe("PASSKEY_CHALLENGE_INVALID")
    expect((await call("GET", "/api/auth/passkeys", { token: user.token })).body.data.passkeys).toEqual([])

    const added = await addPasskey(user)
    expect((await call("POST", "/api/auth/passkeys/sign-in", { body: { response: added.signIn(await signInOptions(), "http://evil.example") } })).body.error.code).toBe("PASSKEY_SIGN_IN_FAILED")
    expect((await call("POST", "/api/auth/passkeys/sign-in", { body: { response: added.signIn(await signInOptions(), ORIGIN, { userVerified: false }) } })).status).toBe(401)
    const answer = added.signIn(await signInOptions(), ORIGIN)
    expect((await call("POST", "/api/auth/passkeys/sign-in", { body: { response: answer } })).status).toBe(200)
    expect((await call("POST", "/api/auth/passkeys/sign-in", { body: { response: answer } })).body.error.code).toBe("PASSKEY_SIGN_IN_FAILED")
    expect((await call("POST", "/api/auth/passkeys/sign-in", { body: { response: { id: "x" } } })).status).toBe(400)
    expect((await call("POST", "/api/auth/passkeys/sign-in", { body: { response: { ...answer, response: { ...(answer as { response: object }).response, clientDataJSON: "bm90LWpzb24" } } } })).status).toBe(400)
  })

  it("refuses a signature counter that goes backwards, as a copied authenticator would send", async () => {
    const user = await signedUpUser()
    const passkey = await addPasskey(user)
    passkey.counter = 10
    expect((await signIn(passkey)).status).toBe(200)
    passkey.counter = 5
    const copied = await signIn(passkey)
    expect(copied.status).toBe(401)
    expect(copied.body.error.message).toBe("This passkey's signature counter went backwards, so it may have been copied. It was refused.")
  })

  it("is changed only from the website's session", async () => {
    const user = await signedUpUser()
    const extension = await call("POST", "/api/auth/extension-session", { token: user.token })
    const refused = await call("POST", "/api/auth/passkeys/registration-options", { token: extension.body.data.token, body: { currentPassword: STRONG } })
    expect(refused.status).toBe(403)
  })

  it("signs in once for one answer, and adds one passkey for one registration, under 20 parallel requests", async () => {
    const user = await signedUpUser()
    const passkey = softwarePasskey(RP_ID)
    const registration = passkey.register(await registrationOptions(user), ORIGIN)
    const adds = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/auth/passkeys", { token: user.token, body: { name: "Key", response: registration } })))
    expect(adds.filter((answer) => answer.status === 201)).toHaveLength(1)
    expect(adds.every((answer) => answer.status === 201 || answer.status === 400)).toBe(true)
    expect((await call("GET", "/api/auth/passkeys", { token: user.token })).body.data.passkeys).toHaveLength(1)

    const answer = passkey.signIn(await signInOptions(), ORIGIN)
    const signIns = await Promise.all(Array.from({ length: 20 }, () => call("POST", "/api/auth/passkeys/sign-in", { body: { response: answer } })))
    expect(signIns.filter((result) => result.status === 200)).toHaveLength(1)
    expect(signIns.every((result) => result.status === 200 || result.status === 401)).toBe(true)
  })
})
