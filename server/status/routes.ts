import type { FastifyInstance } from "fastify"

import { fail, ok, type StatusReport } from "../../src/core/api"
import { PRODUCT_NAME } from "../../src/core/company"
import { APP_VERSION } from "../../src/core/version"
import type { Database } from "../db/database"

export interface StatusDependencies {
  database: Database
  startedAt: number
  now: () => number
}

export async function statusRoutes(app: FastifyInstance, { database, startedAt, now }: StatusDependencies) {
  app.get("/api/status", async (request, reply) => {
    const report: StatusReport = {
      name: PRODUCT_NAME,
      version: APP_VERSION,
      uptimeSeconds: Math.floor((now() - startedAt) / 1000),
      checks: { database: { status: "ok" } }
    }
    reply.header("cache-control", "no-store")
    try {
      report.checks.database.latencyMs = Math.round((await database.ping()) * 100) / 100
      return ok(report)
    } catch (error) {
      request.log.warn({ err: error }, "database health check failed")
      report.checks.database = { status: "error", message: "The database is not reachable." }
      return reply
        .status(503)
        .send({ ...fail("SERVICE_UNAVAILABLE", "The database is not reachable."), data: report })
    }
  })
}
