/**
 * Active users per day: an account counts as active on a UTC day it made an authenticated request. Every request
 * passes here, so each instance remembers the accounts it has already marked today and writes at most one row per
 * account and day (the insert itself ignores a row another instance wrote first). The memory holds one day's accounts
 * and starts afresh with the next day.
 */
import type { FastifyInstance } from "fastify"

import { utcDayKey } from "~core/time"

import { markActive } from "./analytics-store"

interface MarkedToday {
  day: string
  users: Set<string>
}

// Per app, not per process: tests run several apps (instances) in one process, each with its own clock and database.
const markedByApp = new WeakMap<FastifyInstance, MarkedToday>()

export async function noteActiveUser(app: FastifyInstance, userId: string, now: number): Promise<void> {
  const day = utcDayKey(now)
  let marked = markedByApp.get(app)
  if (!marked || marked.day !== day) markedByApp.set(app, (marked = { day, users: new Set() }))
  if (marked.users.has(userId)) return
  await markActive(app.database.db, userId, day)
  // Remembered once written: a failed write is tried again by the account's next request.
  marked.users.add(userId)
}
