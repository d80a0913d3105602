/**
 * How an invitee gets in: registering with the invited address (the e-mail verification still applies: no session,
 * so no accepting, before it) or signing in with Google as that address (Firebase Auth emulator); a Google account of
 * another address is refused the invitation.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

import type { Organization } from "~core/organizations"

import { EMULATOR_PROJECT_ID, emulatorGoogleIdToken } from "../../tests/setup/firebase-emulator"
import { readOutbox, signedInUser, startTestApp, type TestApp } from "../test-kit"

const STRONG = "Blue-Harbor-42!"
const emulatorHost = inject("firebaseAuthEmulatorHost")
let subject: TestApp
let counter = 0
const unique = () => `${Date.now().toString(36)}-${++counter}`

beforeAll(async () => {
  // Firebase checks its tokens against the real time.
  subject = await startTestApp({ PUBLIC_URL: "http://localhost:8787", FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }, { clock: Date.now })
})
afterAll(async () => subject?.close())

async function post(url: string, body: unknown, token?: string) {
  const response = await subject.app.inject({ method: "POST", url, headers: token ? { authorization: `Bearer ${token}` } : {}, payload: body as object })
  return { status: response.statusCode, body: response.json() }
}

async function linkMailedTo(email: string, subjectStart: string): Promise<URL> {
  await subject.app.outbox.idle()
  const mail = (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email) && message.subject.startsWith(subjectStart)).pop()
  expect(mail?.link, `a mail "${subjectStart}…" to ${email}`).toBeTruthy()
  return new URL(mail!.link!)
}

/** Acme's owner invites `email`; the code of the e-mailed link. */
async function invite(email: string): Promise<string> {
  const owner = await signedInUser(subject.app, "enterprise")
  expect((await post("/api/organizations", { name: `Acme ${unique()}` }, owner.token)).status).toBe(201)
  expect((await post("/api/organizations/current/invitations", { email, role: "member" }, owner.token)).status).toBe(201)
  const link = await linkMailedTo(email, "Grace Hopper invited you")
  expect(link.pathname).toBe("/organization/join")
  return link.searchParams.get("code")!
}

describe("an invitee", () => {
  it("registers with the invited address, verifies it, signs in and accepts", async () => {
    const email = `invitee-${unique()}@example.com`
    const code = await invite(email)
    const registered = await post("/api/auth/register", { email, password: STRONG, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true })
    expect(registered.status).toBe(201)
    expect(registered.body.data.token ?? null).toBeNull()
    const early = await post("/api/auth/login", { email, password: STRONG })
    expect([early.status, early.body.error.code]).toEqual([403, "EMAIL_NOT_VERIFIED"])
    const verify = await linkMailedTo(email, "Verify")
    expect((await post("/api/auth/verify-email", { oobCode: verify.searchParams.get("oobCode") })).status).toBe(200)
    const { token } = (await post("/api/auth/login", { email, password: STRONG })).body.data as { token: string }
    const joined = await post("/api/organizations/invitations/accept", { code }, token)
    expect([joined.status, (joined.body.data as Organization).role]).toEqual([200, "member"])
  })

  it("signs in with Google as the invited address and accepts; a Google account of another address is refused", async () => {
    const email = `g-invitee-${unique()}@example.com`
    const code = await invite(email)
    const signIn = async (address: string) => {
      const idToken = await emulatorGoogleIdToken(emulatorHost, { sub: `google-${unique()}`, email: address, name: "Grace Hopper" })
      return (await post("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true })).body.data.token as string
    }
    const stranger = await post("/api/organizations/invitations/accept", { code }, await signIn(`g-other-${unique()}@example.com`))
    expect([stranger.status, stranger.body.error.code]).toEqual([403, "INVITATION_NOT_FOR_YOU"])
    const joined = await post("/api/organizations/invitations/accept", { code }, await signIn(email))
    expect([joined.status, (joined.body.data as Organization).members.some((member) => member.email === email)]).toEqual([200, true])
  })
})
