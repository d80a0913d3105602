/**
 * Invitations cannot be used to mail an address again and again with our name on it: one e-mail a minute and 5 a day
 * per organisation and address, 30 an hour per organisation, counted in the shared limits (a burst of parallel calls
 * sends exactly what they allow), refused with 429 and retryAfter in the wrapper; a refused invitation counts
 * nothing. The e-mail carries the names as plain, short text and says who sent it and that it may be ignored.
 */
import fs from "node:fs/promises"
import path from "node:path"

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"

import { INVITATION_RESEND_COOLDOWN_SECONDS, INVITATIONS_PER_ADDRESS_PER_DAY, INVITATIONS_PER_ORGANIZATION_PER_HOUR, MAX_ORGANIZATION_MEMBERS } from "~core/organizations"
import { DAY_MS, HOUR_MS, MINUTE_MS } from "~core/time"

import { readOutbox, startTestApp, type TestApp } from "../test-kit"
import { organizationTestKit, type Person } from "./organization-test-kit"

let subject: TestApp
/** The app's clock; moved by the tests, and an hour on before each (a fresh start for the hourly counts). */
let now = Date.parse("2026-03-02T09:00:00Z")

beforeAll(async () => {
  subject = await startTestApp({}, { clock: () => now })
})
afterAll(async () => subject?.close())
beforeEach(() => {
  now += 2 * DAY_MS
})

const { person, signInAgain, call, organizationWith } = organizationTestKit(() => subject)

const invite = (who: Person, email: string) => call("POST", "/api/organizations/current/invitations", who, { email, role: "member" })
const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status)

async function mailsTo(email: string) {
  await subject.app.outbox.idle()
  return (await readOutbox(subject.dataDir)).filter((mail) => mail.to.includes(email))
}

/** An owner on Enterprise with their organisation. */
async function ownerOf(name: string): Promise<Person> {
  const owner = await person("enterprise")
  await organizationWith(owner, name)
  return owner
}

describe("invitation e-mails", () => {
  it("go once to a burst of 24 parallel invitations of one address; the others are refused with 429 and retryAfter", async () => {
    const owner = await ownerOf("Acme")
    const answers = await Promise.all(Array.from({ length: 24 }, () => invite(owner, "stranger@example.net")))
    expect(statuses(answers).filter((status) => status === 201)).toHaveLength(1)
    const refused = answers.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(23)
    for (const answer of refused) {
      expect(answer.body.success).toBe(false)
      expect(answer.body.error).toMatchObject({ code: "TOO_MANY_REQUESTS", message: expect.stringMatching(/^An invitation was sent to stranger@example\.net less than a minute ago\. You can send it again in \d+ seconds?\.$/) })
      expect(answer.body.error.retryAfter).toBeGreaterThan(0)
      expect(answer.body.error.retryAfter).toBeLessThanOrEqual(INVITATION_RESEND_COOLDOWN_SECONDS)
    }
    // A sub-address reaches the same mailbox: it waits too.
    expect((await invite(owner, "Stranger+again@example.net")).body.error.code).toBe("TOO_MANY_REQUESTS")
    expect(await mailsTo("stranger@example.net")).toHaveLength(1)
    expect(await mailsTo("stranger+again@example.net")).toHaveLength(0)
    expect((await call("GET", "/api/organizations/current/invitations", owner)).body.data).toHaveLength(1)
  })

  it(`go to one address at most once a minute and ${INVITATIONS_PER_ADDRESS_PER_DAY} times a day from one organisation`, async () => {
    let owner = await ownerOf("Initech")
    const address = "daily@example.net"
    const firstAt = now
    for (let sent = 0; sent < INVITATIONS_PER_ADDRESS_PER_DAY; sent++) {
      expect((await invite(owner, address)).status).toBe(201)
      expect((await invite(owner, address)).body.error.code).toBe("TOO_MANY_REQUESTS")
      now += INVITATION_RESEND_COOLDOWN_SECONDS * 1000
    }
    const daily = await invite(owner, address)
    expect([daily.status, daily.body.error.code]).toEqual([429, "TOO_MANY_REQUESTS"])
    expect(daily.body.error.message).toMatch(/^daily@example\.net has had 5 invitations from your organisation in the last 24 hours, the most we send\. You can invite this address again in 24 hours\.$/)
    // Until the first of the five is a day old.
    expect(daily.body.error.retryAfter).toBe((firstAt + DAY_MS - now) / 1000)
    // Another organisation, and another address, are counted apart.
    expect((await invite(await ownerOf("Globex"), address)).status).toBe(201)
    expect((await invite(owner, "other@example.net")).status).toBe(201)

    now = firstAt + DAY_MS
    owner = await signInAgain(owner)
    expect((await invite(owner, address)).status).toBe(201)
    expect(await mailsTo(address)).toHaveLength(INVITATIONS_PER_ADDRESS_PER_DAY + 2)
  })

  it(`go at most ${INVITATIONS_PER_ORGANIZATION_PER_HOUR} an hour from one organisation, also to a burst; a refused invitation counts none`, async () => {
    let owner = await ownerOf("Hooli")
    const firstAt = now
    const seats = MAX_ORGANIZATION_MEMBERS - 1
    const team = Array.from({ length: seats }, (_, index) => `hire${index}@hooli.example`)
    expect(statuses(await Promise.all(team.map((email) => invite(owner, email))))).toEqual(Array(seats).fill(201))
    // The organisation is full: refused, and not counted.
    expect((await invite(owner, "one-too-many@hooli.example")).body.error.code).toBe("ORGANIZATION_FULL")

    now += INVITATION_RESEND_COOLDOWN_SECONDS * 1000
    const resent = await Promise.all(team.slice(0, 10).map((email) => invite(owner, email)))
    const left = INVITATIONS_PER_ORGANIZATION_PER_HOUR - seats
    expect(statuses(resent).filter((status) => status === 201)).toHaveLength(left)
    const refused = resent.filter((answer) => answer.status === 429)
    expect(refused).toHaveLength(10 - left)
    expect(refused[0]!.body.error.message).toBe(`Your organisation has sent ${INVITATIONS_PER_ORGANIZATION_PER_HOUR} invitations in the last hour, the most we send. You can send more in 59 minutes.`)
    expect(refused[0]!.body.error.retryAfter).toBe((firstAt + HOUR_MS - now) / 1000)

    now = firstAt + HOUR_MS + MINUTE_MS
    owner = await signInAgain(owner)
    expect((await invite(owner, team[20]!)).status).toBe(201)
    await subject.app.outbox.idle()
    const sent = (await readOutbox(subject.dataDir)).filter((mail) => mail.to.endsWith("@hooli.example"))
    expect(sent).toHaveLength(INVITATIONS_PER_ORGANIZATION_PER_HOUR + 1)
  })
})

/** A header of a raw message, unfolded and with its RFC 2047 encoded words decoded. */
function headerOf(raw: string, name: string): string {
  const headers = raw.slice(0, raw.indexOf("\n\n")).replace(/\n[ \t]+/g, " ")
  const value = new RegExp(`^${name}: (.*)$`, "mi").exec(headers)?.[1] ?? ""
  const decodeWord = (_word: string, encoding: string, text: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_hex, code: string) => String.fromCharCode(parseInt(code, 16))), "latin1").toString("utf8")
  return value.replace(/\?=\s+=\?/g, "?==?").replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, decodeWord)
}

describe("the invitation e-mail", () => {
  it("shows hostile names as plain, short text, says who sent it, and has no HTML part", async () => {
    const owner = await person("enterprise")
    await subject.database.db.updateTable("users").set({ name: "orgadmin\r\nBcc: all@example.com\u202E <b>Boss</b> of the Worldwide Department of Prizes and Rewards" }).where("id", "=", owner.id).execute()
    const hostile = "Acme <img src=x onerror=alert(1)> Prizes: claim your reward at prize.example"
    expect(hostile.length).toBeLessThanOrEqual(80)
    await organizationWith(owner, hostile)
    expect((await invite(owner, "target@example.net")).status).toBe(201)

    await subject.app.outbox.idle()
    const folder = path.join(subject.dataDir, "outbox")
    const raws = await Promise.all((await fs.readdir(folder)).filter((file) => file.endsWith(".eml")).map((file) => fs.readFile(path.join(folder, file), "utf8")))
    const raw = raws.map((message) => message.replace(/\r\n/g, "\n")).find((message) => headerOf(message, "To").includes("target@example.net"))!
    const organization = "Acme Prizes: claim your reward at prize.example"
    // One line, no markup, cut to 60 characters.
    const inviter = "orgadmin Bcc: all@example.com Boss of the Worldwide Departm…"
    expect(headerOf(raw, "Subject")).toBe(`${inviter} invited you to ${organization} on Image Query AI`)
    expect(raw).not.toMatch(/text\/html|<img|onerror|<b>/i)
    expect(headerOf(raw, "Bcc")).toBe("")

    const [mail] = await mailsTo("target@example.net")
    expect(mail!.text).toContain(`${inviter} (${owner.email}) invited you to join the organisation ${organization} on Image Query AI as a member.`)
    expect(mail!.text).toContain(`If you do not know ${inviter} or did not expect this invitation, you can ignore this e-mail`)
  })
})
