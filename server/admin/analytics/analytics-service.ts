/**
 * GET /api/admin/analytics: the recorded events of the last days, one entry per UTC day from the oldest to today,
 * days without any event as zeros (a chart's gap is a quiet day, not a missing one).
 */
import type { FastifyInstance } from "fastify"

import type { Analytics } from "~core/admin/admin-analytics"
import { lastUtcDays } from "~core/time"

import { figuresBetween } from "./analytics-store"

export function analyticsService(app: FastifyInstance) {
  return {
    async lastDays(days: number): Promise<Analytics> {
      const now = app.clock()
      const dates = lastUtcDays(now, days)
      const recorded = new Map((await figuresBetween(app.database.db, dates[0]!, dates[dates.length - 1]!)).map((figures) => [figures.day, figures]))
      return {
        days: dates.map((date) => {
          const { day: _day, ...figures } = recorded.get(date) ?? { day: date, questions: 0, translations: 0, apiCalls: 0, signUps: 0, activeUsers: 0, feedback: 0 }
          return { date, ...figures }
        })
      }
    }
  }
}
