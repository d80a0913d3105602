/**
 * Delivery: a receiver that fails twice then answers 200 gets the event once delivered, every attempt with the same
 * webhook-id and its own timestamp and signature (each verified with standardwebhooks); one that never answers 2xx
 * sees the delivery retried, shown as retrying with its next attempt's time, then failed once the give-up time has
 * passed; a redirect is not followed; one owner's deliveries are claimed two at a time at most; a receiver whose
 * address is no longer allowed is not reached.
 */
import { afterAll, beforeAll, expect, it } from "vitest"

import { signedInUser, startTestApp, type TestApp } from "../test-kit"
import { SHORT_TIMINGS, startReceiver, verified, webhookCalls, type Receiver } from "./webhook-test-kit"
import { claimDue, insertDelivery, ownerKey } from "./webhook-store"

let subject: TestApp
let receiver: Receiver
/** The app's clock runs ahead of the real one by this much: a test moves it on (timestamps are whole seconds). */
let ahead = 0
const clock = () => Date.now() + ahead
/** Shared with the second app of the last test: its sessions and sealed secrets open there too. */
const TOKEN_SECRET = "webhook-delivery-test-token-secret-0123456789"
const TIMINGS = { ...SHORT_TIMINGS, giveUpAfterMs: 20_000 }

beforeAll(async () => {
  receiver = await startReceiver()
  subject = await startTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true", TOKEN_SECRET }, { webhookTimings: TIMINGS, clock })
})
afterAll(async () => {
  await subject?.close()
  await receiver?.close()
})

const { call, addHook, deliveries, until } = webhookCalls(() => subject)

it("delivers once to a receiver that fails twice then answers 200: one webhook-id, three timestamps and signatures", async () => {
  const pro = await signedInUser(subject.app, "pro")
  const hook = await addHook(pro, receiver.url, ["api_key.created"])
  let calls = 0
  // Each failure moves the app's clock a second and a half on: the next attempt's timestamp is another.
  receiver.answer(() => {
    calls += 1
    if (calls < 3) ahead += 1_500
    return calls < 3 ? 503 : 200
  })
  try {
    const { deliveryId } = (await call("POST", `/api/webhooks/${hook.id}/test`, pro)).body.data as { deliveryId: string }
    const [delivery] = await until(() => deliveries(pro, hook.id), (rows) => rows[0]?.status === "delivered", "the delivery")
    expect(delivery).toMatchObject({ id: deliveryId, status: "delivered", attempts: 3, lastStatusCode: 200, nextAttemptAt: null })
    const attempts = receiver.received.filter((entry) => entry.id === deliveryId)
    expect(attempts.map((entry) => entry.status)).toEqual([503, 503, 200])
    expect(new Set(attempts.map((entry) => entry.timestamp)).size).toBe(3)
    expect(new Set(attempts.map((entry) => entry.signature)).size).toBe(3)
    expect(new Set(attempts.map((entry) => entry.body)).size).toBe(1)
    for (const entry of attempts) expect(verified(hook.secret, entry)).toMatchObject({ type: "webhook.test" })
    await subject.app.webhooks.idle()
    expect(receiver.received.filter((entry) => entry.id === deliveryId)).toHaveLength(3)
  } finally {
    receiver.answer(() => 200)
  }
})

it("shows a delivery that keeps failing as retrying with its next attempt's time, then failed after the give-up time", async () => {
  const pro = await signedInUser(subject.app, "pro")
  const failing = await startReceiver(() => 500)
  try {
    const hook = await addHook(pro, failing.url, ["api_key.created"])
    await call("POST", `/api/webhooks/${hook.id}/test`, pro)
    const [retrying] = await until(() => deliveries(pro, hook.id), (rows) => rows[0]?.status === "retrying", "a retry")
    expect(retrying).toMatchObject({ event: "webhook.test", status: "retrying", lastStatusCode: 500 })
    expect(Date.parse(retrying!.nextAttemptAt!)).toBeGreaterThan(Date.parse(retrying!.lastAttemptAt!))
    await until(() => failing.received.length, (count) => count >= 3, "three attempts")
    // Past the give-up time (20 s here; a day and two hours by default): the next failure is the last.
    ahead += 21_000
    const [failed] = await until(() => deliveries(pro, hook.id), (rows) => rows[0]?.status === "failed", "the give-up")
    expect(failed).toMatchObject({ status: "failed", lastStatusCode: 500, nextAttemptAt: null })
    expect(failed!.attempts).toBeGreaterThan(2)
    const sent = failing.received.length
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(failing.received).toHaveLength(sent)
  } finally {
    await failing.close()
  }
})

it("does not follow a redirect: a 3xx is a failed attempt", async () => {
  const pro = await signedInUser(subject.app, "pro")
  const redirecting = await startReceiver(() => 302)
  try {
    const hook = await addHook(pro, redirecting.url, ["api_key.created"])
    await call("POST", `/api/webhooks/${hook.id}/test`, pro)
    const [row] = await until(() => deliveries(pro, hook.id), (rows) => rows[0]?.status === "retrying", "a retry")
    expect(row!.lastStatusCode).toBe(302)
  } finally {
    await redirecting.close()
  }
})

it("claims at most two deliveries of one owner at once, in flight ones counted: another owner's are not held up", async () => {
  const busy = await signedInUser(subject.app, "pro")
  const quiet = await signedInUser(subject.app, "pro")
  const busyHook = await addHook(busy, receiver.url, ["api_key.created"])
  const quietHook = await addHook(quiet, receiver.url, ["api_key.created"])
  // An hour ahead: the app's own worker does not see them due.
  const later = new Date(Date.now() + 3_600_000)
  const db = subject.database.db
  const queue = (hook: { id: string }, who: { id: string }, id: string) =>
    insertDelivery(db, { id, endpointId: hook.id, ownerKey: ownerKey({ kind: "user", id: who.id }), type: "api_key.created", payload: "{}", now: later })
  for (let index = 0; index < 5; index++) await queue(busyHook, busy, `msg_busy${index}`)
  await queue(quietHook, quiet, "msg_quiet")
  // Only these two owners' rows are looked at (other tests' retries are due too, and claimed alike).
  const mine = (rows: { id: string }[]) => rows.map((row) => row.id).filter((id) => id.startsWith("msg_busy") || id === "msg_quiet").sort()
  expect(mine(await claimDue(db, later, 60_000, 20, 2))).toEqual(["msg_busy0", "msg_busy1", "msg_quiet"])
  // The busy owner's two are still in flight: nothing more of theirs.
  expect(mine(await claimDue(db, later, 60_000, 20, 2))).toEqual([])
  await db.deleteFrom("webhook_deliveries").where("id", "like", "msg_busy%").execute()
  await db.deleteFrom("webhook_deliveries").where("id", "=", "msg_quiet").execute()
})

it("hands each due delivery to one claim of 20 made at once (as by workers of several instances)", async () => {
  const owners = await Promise.all([0, 1].map(() => signedInUser(subject.app, "pro")))
  const hooks = await Promise.all(owners.map((owner) => addHook(owner, receiver.url, ["api_key.created"])))
  // An hour ahead: the app's own worker does not see them due.
  const later = new Date(Date.now() + 3_600_000)
  const db = subject.database.db
  for (let index = 0; index < 30; index++) {
    const owner = index % 2
    await insertDelivery(db, { id: `msg_claim${index}`, endpointId: hooks[owner]!.id, ownerKey: ownerKey({ kind: "user", id: owners[owner]!.id }), type: "api_key.created", payload: "{}", now: later })
  }
  const claims = await Promise.all(Array.from({ length: 20 }, () => claimDue(db, later, 60_000, 10, 30)))
  const mine = claims.flatMap((rows) => rows.map((row) => row.id).filter((id) => id.startsWith("msg_claim")))
  expect(mine).toHaveLength(30)
  expect(new Set(mine).size).toBe(30)
  await db.deleteFrom("webhook_deliveries").where("id", "like", "msg_claim%").execute()
})

it("checks the address again at each send: an endpoint added while loopback was allowed is not reached without it", async () => {
  const pro = await signedInUser(subject.app, "pro")
  const hook = await addHook(pro, receiver.url, ["api_key.created"])
  const before = receiver.received.length
  // The same database, served by an app without WEBHOOKS_ALLOW_LOOPBACK: only its worker runs meanwhile.
  await subject.app.webhooks.close()
  const strict = await startTestApp({ TOKEN_SECRET }, { database: subject.database, webhookTimings: TIMINGS, clock })
  try {
    const { deliveryId } = (await call("POST", `/api/webhooks/${hook.id}/test`, pro)).body.data as { deliveryId: string }
    await until(
      () => subject.database.db.selectFrom("webhook_deliveries").select(["last_error", "attempts"]).where("id", "=", deliveryId).executeTakeFirstOrThrow(),
      (row) => row.attempts > 0 && row.last_error !== null,
      "the refused attempt"
    ).then((row) => expect(row.last_error).toBe("URL_NOT_ALLOWED"))
    expect(receiver.received).toHaveLength(before)
  } finally {
    await strict.app.close()
  }
})
