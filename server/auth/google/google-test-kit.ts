/**
 * What the Google sign-in API tests share (google-*.test.ts): the app pointed at the Firebase Auth emulator, Google
 * users and their ID tokens from the emulator, and e-mail accounts made the way users make them.
 */
import { afterAll, beforeAll, beforeEach, inject } from "vitest"

import { EMULATOR_PROJECT_ID, emulatorGoogleIdToken } from "../../../tests/setup/firebase-emulator"
import { readOutbox, startTestApp, type TestApp } from "../../test-kit"

export const STRONG = "Blue-Harbor-42!"
export const emulatorHost = inject("firebaseAuthEmulatorHost")
export const googleEnv = { PUBLIC_URL: "http://localhost:8787", FIREBASE_PROJECT_ID: EMULATOR_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost }

/** The app under test of the file that called setUpGoogleApp. */
export let subject: TestApp
// Firebase checks its tokens against the real time, so the app's clock starts there too.
export let now = Date.now()
let ipCounter = 0
export const nextIp = () => `10.12.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`
let counter = 0
// The emulator is shared by the test files running at once: a tag of this file's own keeps their Google users apart.
const fileTag = Math.random().toString(36).slice(2, 8)
export const unique = () => `${Date.now().toString(36)}-${fileTag}-${++counter}`

/** Starts the app for the calling test file, moves its clock a minute on before each test, and closes it after. */
export function setUpGoogleApp(): void {
  beforeAll(async () => {
    subject = await startTestApp(googleEnv, { clock: () => now })
  })
  afterAll(async () => subject?.close())
  beforeEach(() => {
    now += 60_000
  })
}

export async function call(app: TestApp, method: "GET" | "POST", url: string, options: { body?: unknown; token?: string; ip?: string } = {}) {
  const response = await app.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? nextIp(),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body !== undefined ? { payload: options.body as object } : {})
  })
  return { status: response.statusCode, body: response.json() }
}
export const post = (url: string, body?: unknown, options: { token?: string; ip?: string } = {}) => call(subject, "POST", url, { body, ...options })
export const get = (url: string, token?: string) => call(subject, "GET", url, { token })

export const emulatorApi = (method: string) => `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=demo-api-key`

/** A Google user signing in through the emulator; the same `sub` is the same Google account (the same Firebase uid). */
export const googleIdToken = (claims: { sub: string; email: string; email_verified?: boolean; name?: string }) => emulatorGoogleIdToken(emulatorHost, claims)

export const newGoogleUser = (name = "Grace Hopper") => {
  const id = unique()
  return { sub: `google-${id}`, email: `g-${id}@example.com`, name }
}

function decodePart(part: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>
}

/** The emulator's tokens are unsigned; this one has the same claims with others changed. */
export function reissued(idToken: string, changes: Record<string, unknown>): string {
  const [header, payload] = idToken.split(".")
  const claims = { ...decodePart(payload!), ...changes }
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`
}

export function firebaseUid(idToken: string): string {
  return decodePart(idToken.split(".")[1]!).user_id as string
}

export async function userRows(where: { email?: string; googleUid?: string }) {
  let query = subject.database.db.selectFrom("users").selectAll()
  if (where.email) query = query.where("email", "=", where.email)
  if (where.googleUid) query = query.where("google_uid", "=", where.googleUid)
  return query.execute()
}

async function mailTo(email: string) {
  await subject.app.outbox.idle()
  return (await readOutbox(subject.dataDir)).filter((message) => message.to.includes(email))
}

export async function register(email: string) {
  return post("/api/auth/register", { email, password: STRONG, name: "Ada Lovelace", termsAccepted: true, privacyPolicyAccepted: true })
}

export async function verificationCode(email: string): Promise<string> {
  const link = (await mailTo(email)).find((message) => message.subject.startsWith("Verify"))!.link!
  return new URL(link).searchParams.get("oobCode")!
}

/** A verified e-mail account, signed in. */
export async function emailAccount() {
  const email = `e-${unique()}@example.com`
  await register(email)
  await post("/api/auth/verify-email", { oobCode: await verificationCode(email) })
  const { body } = await post("/api/auth/login", { email, password: STRONG })
  return { email, token: body.data.token as string }
}

export const acceptTerms = (idToken: string, options: { ip?: string } = {}) =>
  post("/api/auth/google/accept-terms", { idToken, termsAccepted: true, privacyPolicyAccepted: true }, options)
