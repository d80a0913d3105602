/**
 * GET /api/admin/audit and GET /api/admin/audit.csv: the audit log for admins (audit-service.ts). Only reading
 * routes exist: no call of the API changes or deletes an entry.
 */
import { Readable } from "node:stream"

import type { FastifyInstance } from "fastify"
import * as z from "zod"

import { ok } from "~core/api-answer"
import { utcDayKey } from "~core/time"
import { AUDIT_PAGE_SIZE, auditFilterSchema, auditPageSchema, auditQuerySchema } from "~core/admin/audit"

import { requireAdmin } from "../auth/require-admin"
import { documented, parseRequest } from "../openapi/route-docs"
import { auditService } from "./audit-service"

const FILTERS = "kind: one of the log's kinds; actor: an account id, or (part of) the actor's e-mail address; from, to: days as YYYY-MM-DD, inclusive, in UTC."

const listDoc = documented({
  tag: "Admin",
  summary: "The audit log",
  description: `Who did what, on whom, when and from which address; newest first, ${AUDIT_PAGE_SIZE} a page. ${FILTERS} actor is null for the system (a lockout).`,
  querystring: auditQuerySchema,
  data: { 200: auditPageSchema }
})

const csvDoc = documented({
  tag: "Admin",
  summary: "The audit log as CSV",
  description: `Every entry the filters select, newest first, with the columns at,actor,action,target,ip,details (details as JSON). ${FILTERS} RFC 4180; a cell starting with = + - @ is prefixed with ' so a spreadsheet shows it as text.`,
  querystring: auditFilterSchema,
  answers: { 200: { description: "The entries, as a CSV file.", content: { "text/csv": { schema: z.string() } } } }
})

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const audit = auditService(app)

  app.get("/api/admin/audit", { preHandler: requireAdmin, schema: listDoc }, async (request) => ok(await audit.page(parseRequest(request, "querystring", auditQuerySchema))))

  app.get("/api/admin/audit.csv", { preHandler: requireAdmin, schema: csvDoc }, async (request, reply) => {
    const filter = parseRequest(request, "querystring", auditFilterSchema)
    const day = utcDayKey(app.clock())
    return reply
      .headers({ "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="audit-log-${day}.csv"`, "cache-control": "no-store" })
      .send(Readable.from(audit.csv(filter)))
  })
}
