import type { FastifyInstance } from "fastify"

import { fail, ok, statusReportSchema, statusUnavailableAnswerSchema, type StatusReport } from "~core/api-answer"
import { PRODUCT_NAME } from "~core/company"
import { STATUS_SERVICES, type ServiceId, type ServiceStatusEntry } from "~core/service-status"
import { APP_VERSION } from "./version"

import type { Database } from "../db/database"
import { documented, jsonAnswer } from "../openapi/route-docs"
import {
  apiCheck,
  authenticationCheck,
  CRITICAL_SERVICES,
  databaseCheck,
  paymentCheck,
  runCheck,
  websiteCheck,
  type ServiceCheck
} from "./checks"

export interface StatusDependencies {
  database: Database
  startedAt: number
  now: () => number
  webRoot: string
  tokenSecret: string
}

export async function statusRoutes(app: FastifyInstance, { database, startedAt, now, webRoot, tokenSecret }: StatusDependencies) {
  // The last failure each service had while this process runs: shown as the service's last incident.
  const lastIncident = new Map<ServiceId, string>()

  const schema = documented({
    tag: "Status",
    summary: "The health of each service",
    description: "Runs a real check of each service of the status page. Never cached.",
    data: { 200: statusReportSchema },
    answers: { 503: jsonAnswer("SERVICE_UNAVAILABLE: a critical service is down; the report comes all the same.", statusUnavailableAnswerSchema) }
  })

  app.get("/api/status", { schema }, async (request, reply) => {
    const requestStartedAt = performance.now()
    const checks: Record<ServiceId, ServiceCheck> = {
      website: websiteCheck(webRoot),
      api: apiCheck(requestStartedAt),
      database: databaseCheck(database),
      authentication: authenticationCheck(tokenSecret, now),
      payments: paymentCheck(app.config.billingMode)
    }
    const checkedAt = new Date(now()).toISOString()
    const services: ServiceStatusEntry[] = await Promise.all(
      STATUS_SERVICES.map(async ({ id, name }) => {
        const result = await runCheck(checks[id])
        if (result.status === "outage" || result.status === "degraded") lastIncident.set(id, checkedAt)
        const incident = lastIncident.get(id)
        return { id, name, ...result, ...(incident ? { lastIncident: incident } : {}) }
      })
    )
    const database_ = services.find((service) => service.id === "database")!
    const report: StatusReport = {
      name: PRODUCT_NAME,
      version: APP_VERSION,
      uptimeSeconds: Math.floor((now() - startedAt) / 1000),
      checks: {
        database:
          database_.status === "operational"
            ? { status: "ok", latencyMs: database_.latencyMs }
            : { status: "error", message: database_.message }
      },
      services,
      checkedAt
    }
    reply.header("cache-control", "no-store")

    const down = services.filter((service) => CRITICAL_SERVICES.includes(service.id) && service.status === "outage")
    if (down.length === 0) return ok(report)
    for (const service of down) request.log.warn({ service: service.id }, `status check failed: ${service.message}`)
    return reply.status(503).send({ ...fail("SERVICE_UNAVAILABLE", down.map((service) => service.message).join(" ")), data: report })
  })
}
