import { afterAll, beforeAll, describe, expect, it } from "vitest"

import type { Database } from "../db/database"
import { openTestDatabase } from "../test-kit"
import {
  countUsers,
  deleteUser,
  findUserById,
  insertUser,
  makeVerifiedAdmin,
  markEmailVerified,
  renameUser,
  replacePasswordHash
} from "./user-store"

let database: Database
let counter = 0
const newAddress = () => `row${++counter}@example.com`
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, minutes))

async function passwordHistory(userId: string) {
  return database.db.selectFrom("password_history").select("password_hash").where("user_id", "=", userId).orderBy("id").execute()
}

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => database?.close())

describe("insertUser", () => {
  it("creates an unverified user with its first password in the history", async () => {
    const user = (await insertUser(database.db, { email: ` ${newAddress().toUpperCase()} `, name: "Ada", passwordHash: "hash-1" }, at(0)))!
    expect(user).toMatchObject({ role: "user", plan_id: "free", name: "Ada", password_hash: "hash-1", email_verified_at: null })
    expect(user.email).toBe(user.email.trim().toLowerCase())
    expect(user.terms_accepted_at).toEqual(at(0))
    expect(await passwordHistory(user.id)).toEqual([{ password_hash: "hash-1" }])
  })

  it("answers undefined for a taken address, whatever its case, and stores nothing", async () => {
    const email = newAddress()
    await insertUser(database.db, { email, name: "First", passwordHash: "hash-a" }, at(0))
    const before = await countUsers(database.db, at(0))
    expect(await insertUser(database.db, { email: email.toUpperCase(), name: "Second", passwordHash: "hash-b" }, at(1))).toBeUndefined()
    expect(await countUsers(database.db, at(0))).toEqual(before)
    const history = await database.db.selectFrom("password_history").select("id").where("password_hash", "=", "hash-b").execute()
    expect(history).toHaveLength(0)
  })

  it("creates a verified admin when told", async () => {
    const user = (await insertUser(database.db, { email: newAddress(), name: "Root", passwordHash: "h", role: "admin", emailVerifiedAt: at(3) }, at(3)))!
    expect(user).toMatchObject({ role: "admin", email_verified_at: at(3) })
  })
})

describe("changes to a user", () => {
  it("replaces the password and adds it to the history", async () => {
    const user = (await insertUser(database.db, { email: newAddress(), name: "Ada", passwordHash: "old" }, at(0)))!
    await replacePasswordHash(database.db, user.id, "new", at(5))
    expect((await findUserById(database.db, user.id))).toMatchObject({ password_hash: "new", updated_at: at(5) })
    expect(await passwordHistory(user.id)).toEqual([{ password_hash: "old" }, { password_hash: "new" }])
  })

  it("marks the address verified once: a later proof keeps the first date", async () => {
    const user = (await insertUser(database.db, { email: newAddress(), name: "Ada", passwordHash: "h" }, at(0)))!
    expect((await markEmailVerified(database.db, user.id, at(10)))?.email_verified_at).toEqual(at(10))
    expect((await markEmailVerified(database.db, user.id, at(20)))?.email_verified_at).toEqual(at(10))
    expect(await markEmailVerified(database.db, "00000000-0000-4000-8000-000000000000", at(20))).toBeUndefined()
  })

  it("makes a user a verified admin, keeping an earlier verification date", async () => {
    const fresh = (await insertUser(database.db, { email: newAddress(), name: "A", passwordHash: "h" }, at(0)))!
    const verified = (await insertUser(database.db, { email: newAddress(), name: "B", passwordHash: "h", emailVerifiedAt: at(1) }, at(1)))!
    await makeVerifiedAdmin(database.db, fresh.id, at(30))
    await makeVerifiedAdmin(database.db, verified.id, at(30))
    expect(await findUserById(database.db, fresh.id)).toMatchObject({ role: "admin", email_verified_at: at(30) })
    expect(await findUserById(database.db, verified.id)).toMatchObject({ role: "admin", email_verified_at: at(1) })
  })

  it("renames, and deletes with the password history", async () => {
    const user = (await insertUser(database.db, { email: newAddress(), name: "Old Name", passwordHash: "h" }, at(0)))!
    expect(await renameUser(database.db, user.id, "New Name", at(7))).toMatchObject({ name: "New Name", updated_at: at(7), email: user.email })
    await deleteUser(database.db, user.id)
    expect(await findUserById(database.db, user.id)).toBeUndefined()
    expect(await passwordHistory(user.id)).toEqual([])
  })
})

describe("countUsers", () => {
  it("counts all, admins, verified and those created since a date", async () => {
    const before = await countUsers(database.db, at(50))
    await insertUser(database.db, { email: newAddress(), name: "Old", passwordHash: "h" }, at(40))
    await insertUser(database.db, { email: newAddress(), name: "New", passwordHash: "h", role: "admin", emailVerifiedAt: at(55) }, at(55))
    expect(await countUsers(database.db, at(50))).toEqual({
      total: before.total + 2,
      admins: before.admins + 1,
      verified: before.verified + 1,
      createdSince: before.createdSince + 1
    })
  })
})
