/**
 * The clients of the fault tests (server/faults.test.ts): each keeps calling the server, one call after another, a
 * mix of reads and writes that go through the database and the shared limits, and every answer is kept with its
 * times, so that a test can say what was answered while a service was away and how soon.
 */
export type CallKind = "register" | "feedback" | "profile"

export interface Answer {
  kind: CallKind
  /** Milliseconds since the epoch. */
  startedAt: number
  endedAt: number
  /** 0: no answer within NO_ANSWER_MS (a hang) or no connection. */
  status: number
  body: { success?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown; retryAfter?: unknown } } | null
  /** What the call wrote, for the check that every acknowledged write was kept: an address or a message. */
  wrote?: string
}

/** A call still unanswered this long is given up and counted as a hang: the test must fail, not wait with it. */
export const NO_ANSWER_MS = 6_000

/** Each client's pause between two calls: 20 clients keep up about a hundred calls a second without swamping 2 cores. */
const PAUSE_MS = 100

export const PASSWORD = "Copper-Kettle-37!"

/** Registration (argon2, 60 ms of CPU) is the dearest call: one in ten; feedback two in ten; the rest read. */
const KINDS: CallKind[] = ["register", "feedback", "profile", "feedback", "profile", "profile", "profile", "profile", "profile", "profile"]

let sequence = 0
/** A different client address for every write: the per-IP limits are counted (in the store) but never reached. */
const nextAddress = () => {
  const n = ++sequence
  return { n, ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` }
}

async function call(url: string, init: RequestInit & { headers?: Record<string, string> }): Promise<Pick<Answer, "status" | "body">> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(NO_ANSWER_MS) })
    const text = await response.text()
    let body: Answer["body"] = null
    try {
      body = JSON.parse(text) as Answer["body"]
    } catch {
      body = null
    }
    return { status: response.status, body }
  } catch {
    return { status: 0, body: null }
  }
}

export const registration = (email: string) => ({ email, password: PASSWORD, name: "Fault Test", termsAccepted: true, privacyPolicyAccepted: true })

async function callOnce(baseUrl: string, kind: CallKind, token: string, tag: string): Promise<Omit<Answer, "startedAt" | "endedAt">> {
  const { n, ip } = nextAddress()
  if (kind === "register") {
    const email = `${tag}-${n}@example.com`
    const answer = await call(`${baseUrl}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(registration(email))
    })
    return { kind, ...answer, wrote: email }
  }
  if (kind === "feedback") {
    const message = `Fault test feedback ${tag} number ${n}.`
    const form = new FormData()
    form.set("email", `feedback-${tag}-${n}@example.com`)
    form.set("message", message)
    const answer = await call(`${baseUrl}/api/feedback`, { method: "POST", headers: { "x-forwarded-for": ip }, body: form })
    return { kind, ...answer, wrote: message }
  }
  return { kind, ...(await call(`${baseUrl}/api/auth/profile`, { headers: { authorization: `Bearer ${token}` } })) }
}

export interface Load {
  answers: Answer[]
  /** Stops the clients after their current call and settles once all have stopped. */
  stop(): Promise<Answer[]>
}

/** `clients` clients calling `baseUrl` until stopped; `token` is a signed-in account's, for the reads. */
export function keepCalling(baseUrl: string, { clients, token, tag }: { clients: number; token: string; tag: string }): Load {
  const answers: Answer[] = []
  let stopped = false
  const runners = Array.from({ length: clients }, async (_, client) => {
    for (let turn = client; !stopped; turn++) {
      const kind = KINDS[turn % KINDS.length]!
      const startedAt = Date.now()
      const answer = await callOnce(baseUrl, kind, token, tag)
      answers.push({ ...answer, startedAt, endedAt: Date.now() })
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS))
    }
  })
  return {
    answers,
    async stop() {
      stopped = true
      await Promise.all(runners)
      return answers
    }
  }
}

export const succeeded = (answer: Answer) => answer.status >= 200 && answer.status < 300 && answer.body?.success === true

/** The spec's 503: the wrapper, SERVICE_UNAVAILABLE, a message and when to try again. */
export const refusedAsUnavailable = (answer: Answer) =>
  answer.status === 503 &&
  answer.body?.success === false &&
  answer.body.error?.code === "SERVICE_UNAVAILABLE" &&
  typeof answer.body.error.message === "string" &&
  typeof answer.body.error.retryAfter === "number"

/** Waits until a call of every kind started after `since` has succeeded; answers when the last of them started. */
export async function recovered(load: Load, since: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const firsts = new Map<CallKind, number>()
    for (const answer of load.answers) {
      if (answer.startedAt >= since && succeeded(answer) && !firsts.has(answer.kind)) firsts.set(answer.kind, answer.startedAt)
    }
    if (firsts.size === new Set(KINDS).size) return Math.max(...firsts.values())
    if (Date.now() > deadline) throw new Error(`calls did not succeed again within ${timeoutMs / 1000} s of the service's return (${[...firsts.keys()].join(", ") || "none"} did)`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
