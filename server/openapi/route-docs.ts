/**
 * What a route declares about itself for the API reference (openapi.ts), and how it reads its input through what it
 * declared. A route passes `schema: documented({...})` in its options:
 *
 *   app.post("/api/auth/login", { config, schema: documented({ tag: "Accounts", summary: "Sign in", body: loginRequestSchema,
 *     data: { 200: sessionAnswerSchema }, errors: { 403: "EMAIL_NOT_VERIFIED: ..." } }) }, async (request) => {
 *     const { email, password } = parseRequest(request, "body", loginRequestSchema)
 *
 * The zod schemas are documentation for Fastify, never compiled by it (openapi.ts sets compilers that do nothing):
 * Fastify validates before the preHandler hooks, so an anonymous caller with a bad body would be told 400 instead of
 * 401, and its refusals would not be ours. The route parses its input itself, after its authorisation, with
 * parseRequest, which refuses (500, caught by every test of the route) a schema other than the one declared: the
 * reference cannot describe an input the route does not read.
 */
import type { FastifyRequest } from "fastify"
import type * as z from "zod"

import { apiFailureSchema, apiSuccessSchema } from "~core/api-answer"

import { parseInput } from "../http/errors"

/** The reference's sections, in the order it shows them (openapi.ts describes each). */
export const API_TAGS = ["Status", "Accounts", "Google sign-in", "Analysis", "OCR languages", "Billing", "API keys", "Webhooks", "Public API", "Organizations", "Feedback", "Password policy", "Admin", "Blog", "Reference"] as const
export type ApiTag = (typeof API_TAGS)[number]

/** An answer that is not JSON (a file), or one without a body (304), by its media type. */
export interface MediaAnswer {
  description: string
  content?: Record<string, { schema: z.ZodType }>
}

export interface RouteDoc {
  tag: ApiTag
  summary: string
  description?: string
  body?: z.ZodType
  querystring?: z.ZodType
  params?: z.ZodType
  /** Media types of a body that is not JSON (the feedback form is multipart/form-data). */
  consumes?: string[]
  /** The `data` of each success status, answered as {success: true, data}. */
  data?: Partial<Record<200 | 201, z.ZodType>>
  /** Whole answers of statuses that are not the plain wrapper: a list with its meta, a file, a 304, a 503 with data. */
  answers?: Record<number, z.ZodType | MediaAnswer>
  /** What this route's own refusals mean, by status; those of its hooks (401, 403, 429) and of bad input are added. */
  errors?: Record<number, string>
  /** The route reads a session when one is sent, and answers without one too (sign-out, the password policy). */
  optionalSession?: boolean
  /** A request and its success answer's `data`, shown in the reference (each checked against its schema by the tests). */
  example?: RouteExample
}

/** An example call: its JSON body, or its query when it has no body, and the `data` of its success answer. */
export interface RouteExample {
  request?: unknown
  data: unknown
}

/** The key carrying a route's example to openapi.ts, which places it in the operation's media types (an x- key, as below). */
export const ROUTE_EXAMPLE = "x-route-example"

/** The mark of a route whose session is optional: openapi.ts reads it (an x- key, so @fastify/swagger passes it on). */
export const OPTIONAL_SESSION = "x-optional-session"

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: "OK", 201: "Created" }

/** A response object of the reference: its description and its JSON body's schema. */
export const jsonAnswer = (description: string, schema: z.ZodType): MediaAnswer => ({ description, content: { "application/json": { schema } } })

/** A refusal: the error wrapper, with what the status means here. */
export const refusal = (description: string) => jsonAnswer(description, apiFailureSchema)

/** The route options' `schema`: the zod schemas and texts the reference is generated from (openapi.ts). */
export function documented(doc: RouteDoc) {
  const response: Record<string, z.ZodType | MediaAnswer> = {}
  for (const [status, data] of Object.entries(doc.data ?? {})) {
    response[status] = jsonAnswer(SUCCESS_DESCRIPTIONS[Number(status)] ?? "OK", apiSuccessSchema(data))
  }
  Object.assign(response, doc.answers)
  for (const [status, description] of Object.entries(doc.errors ?? {})) response[status] = refusal(description)
  return {
    summary: doc.summary,
    tags: [doc.tag],
    ...(doc.description ? { description: doc.description } : {}),
    ...(doc.body ? { body: doc.body } : {}),
    ...(doc.querystring ? { querystring: doc.querystring } : {}),
    ...(doc.params ? { params: doc.params } : {}),
    ...(doc.consumes ? { consumes: doc.consumes } : {}),
    ...(doc.optionalSession ? { [OPTIONAL_SESSION]: true } : {}),
    ...(doc.example ? { [ROUTE_EXAMPLE]: { request: doc.example.request, answer: { success: true, data: doc.example.data } } } : {}),
    response
  }
}

/** The `documented` of one section of the reference: each route file declares its docs under one tag. */
export const docsTagged = (tag: ApiTag) => (doc: Omit<RouteDoc, "tag">) => documented({ tag, ...doc })

/** The parts of a request a route declares schemas for, and where Fastify keeps each. */
const REQUEST_PARTS = { body: "body", querystring: "query", params: "params" } as const
export type RequestPart = keyof typeof REQUEST_PARTS

/**
 * The request's `part` parsed with `schema` (400 VALIDATION_FAILED with details otherwise, as parseInput), which must be
 * the very schema the route declares for it. `input` replaces the raw part where the route reads it otherwise (the
 * body of a DELETE may be absent).
 */
export function parseRequest<T extends z.ZodType>(request: FastifyRequest, part: RequestPart, schema: T, input: unknown = request[REQUEST_PARTS[part]]): z.output<T> {
  const declared = (request.routeOptions.schema as Partial<Record<RequestPart, unknown>> | undefined)?.[part]
  if (declared !== schema) {
    throw new Error(`${request.method} ${request.routeOptions.url} parses its ${part} with a schema its route options do not declare, so the API reference would describe another`)
  }
  return parseInput(schema, input)
}
