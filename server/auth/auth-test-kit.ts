/**
 * What the account route tests share: one test app per file on a controllable clock, calls from a fresh client
 * address each (so per-IP limits do not mix tests up; one test checks them), and the sign-up steps.
 */
import { afterAll, beforeAll, beforeEach } from "vitest"

import { readOutbox, startTestApp, type TestApp } from "../test-kit"

export const STRONG = "Blue-Harbor-42!"
export const STRONGER = "Quiet-Meadow-73?"
export const DAY = 24 * 60 * 60_000

type CallOptions = { body?: unknown; token?: string; ip?: string; raw?: string }

async function inject(subject: TestApp, nextIp: () => string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, options: CallOptions) {
  const response = await subject.app.inject({
    method,
    url,
    remoteAddress: options.ip ?? nextIp(),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.raw !== undefined ? { "content-type": "application/json" } : {})
    },
    ...(options.raw !== undefined ? { payload: options.raw } : options.body !== undefined ? { payload: options.body as object } : {})
  })
  return { status: response.statusCode, body: response.json() }
}

type Answer = Awaited<ReturnType<typeof inject>>

export interface AuthTestKit {
  readonly subject: TestApp
  /** The app's clock, in milliseconds; a test moves it forward by assigning. 10 minutes pass before each test. */
  now: number
  nextIp(): string
  call(method: "GET" | "POST" | "PUT" | "DELETE", url: string, options?: CallOptions): Promise<Answer>
  newEmail(): string
  mailTo(email: string): ReturnType<typeof readOutbox>
  register(email: string, password?: string, name?: string): Promise<Answer>
  verify(email: string): Promise<Answer>
  login(email: string, password?: string): Promise<Answer>
  signedUpUser(password?: string): Promise<{ email: string; token: string; refreshToken: string }>
  userCount(): Promise<number>
}

/** Starts the app before the file's tests and closes it after; the kit's functions work once it has started. */
export function authTestKit(): AuthTestKit {
  let subject: TestApp | undefined
  let ipCounter = 0
  let emailCounter = 0

  const kit: AuthTestKit = {
    get subject() {
      if (!subject) throw new Error("The test app has not started")
      return subject
    },
    now: Date.UTC(2026, 10, 22, 9, 0, 0),
    nextIp: () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`,
    call: (method, url, options = {}) => inject(kit.subject, kit.nextIp, method, url, options),
    newEmail: () => `person${++emailCounter}@example.com`,
    async mailTo(email) {
      await kit.subject.app.outbox.idle()
      return (await readOutbox(kit.subject.dataDir)).filter((message) => message.to.includes(email))
    },
    register: (email, password = STRONG, name = "Ada Lovelace") =>
      kit.call("POST", "/api/auth/register", { body: { email, password, name, termsAccepted: true, privacyPolicyAccepted: true } }),
    async verify(email) {
      const link = (await kit.mailTo(email)).find((message) => message.subject.startsWith("Verify"))!.link!
      const oobCode = new URL(link).searchParams.get("oobCode")!
      return kit.call("POST", "/api/auth/verify-email", { body: { oobCode } })
    },
    login: (email, password = STRONG) => kit.call("POST", "/api/auth/login", { body: { email, password } }),
    async signedUpUser(password = STRONG) {
      const email = kit.newEmail()
      await kit.register(email, password)
      await kit.verify(email)
      const { body } = await kit.login(email, password)
      return { email, token: body.data.token as string, refreshToken: body.data.refreshToken as string }
    },
    async userCount() {
      const row = await kit.subject.database.db.selectFrom("users").select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow()
      return Number(row.count)
    }
  }

  beforeAll(async () => {
    subject = await startTestApp(
      { PUBLIC_URL: "http://localhost:8787", ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "Stone-Harvest-2026!" },
      { clock: () => kit.now }
    )
  })
  afterAll(async () => subject?.close())
  beforeEach(() => {
    kit.now += 10 * 60_000
  })
  return kit
}
