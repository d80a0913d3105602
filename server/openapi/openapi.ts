/**
 * The API reference, generated at run time from the routes themselves: GET /api/openapi.json (OpenAPI 3.1) and
 * /api/docs, an interactive reference (swagger-ui) served from our own origin under the site's content security policy.
 *
 * How a route is documented (the convention every new route follows, see route-docs.ts):
 * - it passes `schema: documented({ tag, summary, body?, querystring?, params?, data: { 200: schema }, errors? })` in
 *   its options, the zod schemas from ~core (one per body, query or answer, never a copy);
 * - it parses its input with `parseRequest(request, "body", thatSchema)`, which refuses any schema but the declared one;
 * - what is not declared is read from the route: who may call it (its requireUser, requireAdmin or requireApiKey hook
 *   gives the security and the 401/403 refusals), its per-IP limit (429), and bad input (400) when it takes any. Every
 *   answer is the {success, data?, error?} wrapper: `data` is wrapped here, refusals are the ApiFailure component;
 * - its operationId is its entry in operation-ids.ts (the test fails on a route without one), and an /api/v1 route
 *   adds `example` (a request and its answer's data), checked against its schemas by the test.
 * The document passes Redocly's recommended rules (openapi.test.ts) and generates a typed client (generated-client.test.ts).
 *
 * Two bodies are documented but not parsed with their schema, for reasons given beside them: the feedback form
 * (multipart, read as a stream) and Stripe's webhook (verified and read by Stripe's library from the bytes as sent).
 *
 * Why the schemas are documentation and not Fastify's validation: Fastify validates a body before the preHandler
 * hooks, where most routes authorise, so an anonymous caller would get 400 instead of 401; and its refusals would not
 * carry our codes and details. So the compilers below compile nothing, and the routes keep parsing after authorising.
 *
 * Left out of the reference (UNDOCUMENTED_ROUTES): the site's files with its SPA fallback (GET /*), the pages and
 * files of /api/docs itself, SCIM's /scim/v2 (its own protocol, documented by its RFC and discovery endpoints), and
 * PATH_FORMS. The test (openapi.test.ts) fails when any other registered route is missing.
 */
import fs from "node:fs/promises"

import swagger from "@fastify/swagger"
import swaggerUi from "@fastify/swagger-ui"
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify"
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from "fastify-type-provider-zod"
import * as z from "zod"

import { apiFailureSchema } from "~core/api-answer"
import { sessionAnswerSchema } from "~core/auth-schemas"
import { subscriptionSchema } from "~core/billing/billing"
import { PRODUCT_NAME } from "~core/company"
import { feedbackSchema } from "~core/admin/feedback"
import { ocrLanguagePackSchema } from "~core/ocr/ocr-languages"
import { serviceStatusEntrySchema } from "~core/service-status"
import { publicUserSchema } from "~core/user"
import { APP_VERSION } from "../status/version"
import { vqaUsageSchema } from "~core/analysis/vqa"

import { requireApiKey } from "../api-keys/key-auth"
import { requireUser } from "../auth/authenticate"
import { requireAdmin } from "../auth/require-admin"
import { SCIM_ROUTES } from "../organizations/scim/scim-routes"
import { nameOperations, placeExamples, recordsAsObjects, type DocumentPaths } from "./document-passes"
import { API_TAGS, documented, jsonAnswer, OPTIONAL_SESSION, refusal, type ApiTag, type MediaAnswer } from "./route-docs"

export const OPENAPI_PATH = "/api/openapi.json"
export const DOCS_PREFIX = "/api/docs"

/** Routes the reference leaves out, as "METHOD url": the site's files, and the reference's own page and files. */
/**
 * Routes that are another form of a documented one, left out because their path is ambiguous beside another route
 * (Redocly's no-ambiguous-paths; a generator cannot tell them apart): each names the documented route it repeats.
 */
export const PATH_FORMS: Record<string, string> = { "GET /api/feedback/status/:status": "GET /api/feedback" }

export const UNDOCUMENTED_ROUTES = [
  "GET /*",
  `GET ${DOCS_PREFIX}`,
  `GET ${DOCS_PREFIX}/static/index.html`,
  `GET ${DOCS_PREFIX}/static/swagger-initializer.js`,
  `GET ${DOCS_PREFIX}/json`,
  `GET ${DOCS_PREFIX}/yaml`,
  `GET ${DOCS_PREFIX}/static/*`,
  // SCIM (RFC 7644) has its own protocol, error shape and discovery documents: not our wrapper, so not this reference.
  ...SCIM_ROUTES,
  ...Object.keys(PATH_FORMS)
]

const TAG_DESCRIPTIONS: Record<ApiTag, string> = {
  Status: "The health of the service, as the status page shows it.",
  Accounts: "Registration, sign-in with a password, sessions and the account.",
  "Google sign-in": "Sign-in and sign-up with Google (Firebase), and linking Google to an account.",
  Analysis: "Questions about images and translations for a signed-in session (the extension and the site).",
  "OCR languages": "The language packs the extension downloads to read text in images.",
  Billing: "Plans and subscriptions, and the payment provider's webhook.",
  "API keys": "Personal API keys of Pro and Enterprise accounts, managed on the website.",
  Webhooks: "Signed webhooks (Standard Webhooks) of Pro accounts and Enterprise organisations: endpoints and their deliveries.",
  Organizations: "Teams of the Enterprise plan: members, invitations, roles, one pooled monthly limit and the brand its members' extension shows.",
  "Public API": "/api/v1, called with an API key (Authorization: Bearer iqa_…).",
  Feedback: "The feedback form, and its handling by admins.",
  "Password policy": "The rules new passwords follow.",
  Admin: "The admin dashboard.",
  Blog: "The blog's published posts, and their writing by admins (Markdown, rendered and sanitised by the server).",
  Reference: "This reference."
}

/** Schemas shared by many answers, given a name in components.schemas so that the reference refers to them. */
const COMPONENTS: [z.ZodType, string][] = [
  [apiFailureSchema, "ApiFailure"],
  [publicUserSchema, "User"],
  [sessionAnswerSchema, "Session"],
  [subscriptionSchema, "Subscription"],
  [vqaUsageSchema, "Usage"],
  [feedbackSchema, "Feedback"],
  [ocrLanguagePackSchema, "OcrLanguagePack"],
  [serviceStatusEntrySchema, "ServiceStatus"]
]
for (const [schema, id] of COMPONENTS) z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id })

const SECURITY_SCHEMES = {
  sessionToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "The access token of a website or extension session: POST /api/auth/login, renewed by POST /api/auth/refresh."
  },
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "iqa_…",
    description: "A personal API key (Pro and Enterprise), created on the dashboard. Only /api/v1 takes it."
  }
} as const

type Access = "public" | "session" | "admin" | "apiKey"

const hooksOf = (route: RouteOptions) => [route.onRequest, route.preHandler].flat().filter((hook) => typeof hook === "function")

/** Who may call the route, read from its authorisation hook: the reference cannot say otherwise than the route does. */
function accessOf(route: RouteOptions): Access {
  const hooks: unknown[] = hooksOf(route)
  if (hooks.includes(requireApiKey)) return "apiKey"
  if (hooks.includes(requireAdmin)) return "admin"
  if (hooks.includes(requireUser)) return "session"
  return "public"
}

const takesInput = (schema: FastifySchema) => Boolean(schema.body ?? schema.querystring ?? schema.params)

/** The refusals every route of its kind can answer, by status; the route's own declarations come on top. */
function refusalsOf(route: RouteOptions, access: Access, schema: FastifySchema): Record<string, MediaAnswer> {
  const refusals: Record<string, MediaAnswer> = {}
  if (takesInput(schema)) refusals[400] = refusal("VALIDATION_FAILED: the input breaks a rule of its schema (details names each problem), or BAD_REQUEST: the body is not valid JSON.")
  if (access === "session" || access === "admin") refusals[401] = refusal("UNAUTHORIZED: no valid session token (SESSION_EXPIRED once it has ended).")
  if (access === "admin") {
    refusals[403] = refusal("FORBIDDEN: the account is not an admin; MFA_ENROLLMENT_REQUIRED: the admin has not turned on two-step sign-in, which ADMIN_MFA=required (production's default) asks of admins.")
  }
  if (access === "apiKey") {
    refusals[401] = refusal("INVALID_API_KEY: no API key, a session token instead, or a revoked key.")
    refusals[403] = refusal("PLAN_REQUIRED: the key's account is no longer on Pro or Enterprise; ACCOUNT_DISABLED: an admin disabled the key's account.")
    refusals[429] = refusal("RATE_LIMIT_EXCEEDED: more than 60 calls in a minute or 5 at once with this key, or 120 and 10 over all the account's keys (retryAfter in seconds).")
  }
  if (route.config && "rateLimit" in route.config) refusals[429] = refusal("RATE_LIMIT_EXCEEDED: too many calls from this address (retryAfter in seconds).")
  // What the server answers any request before a route sees it (server/http/request-limits.ts), said where the
  // route itself refuses nothing: client generators and linters expect some 4xx of every operation.
  if (!Object.keys({ ...refusals, ...(schema.response ?? {}) }).some((status) => status.startsWith("4"))) {
    refusals["4XX"] = refusal("As any request: BAD_REQUEST (400) when it is not well-formed HTTP, REQUEST_TIMEOUT (408) when it took over 2 minutes to arrive, 431 when its headers are too large.")
  }
  refusals.default = refusal("Any other refusal or failure, in the same wrapper: the error's code says which.")
  return refusals
}

const isRefusal = (answer: z.ZodType | MediaAnswer): answer is MediaAnswer => !(answer instanceof z.ZodType) && answer.content?.["application/json"]?.schema === apiFailureSchema

/** The route's own answers over the derived refusals; a status in both is described by both (a 401 of a wrong password and of no session). */
function withRefusals(refusals: Record<string, MediaAnswer>, own: Record<string, z.ZodType | MediaAnswer>) {
  const answers: Record<string, z.ZodType | MediaAnswer> = { ...refusals }
  for (const [status, answer] of Object.entries(own)) {
    const derived = refusals[status]
    answers[status] = derived && isRefusal(answer) ? { ...answer, description: `${answer.description} ${derived.description}` } : answer
  }
  return answers
}

const SECURITY: Record<Access, FastifySchema["security"]> = {
  public: [],
  session: [{ sessionToken: [] }],
  admin: [{ sessionToken: [] }],
  apiKey: [{ apiKey: [] }]
}

const zodTransform = createJsonSchemaTransform({ skipList: [] })
const zodTransformObject = createJsonSchemaTransformObject({})

type TransformInput = Parameters<typeof zodTransform>[0] & { route: RouteOptions }

/** One route's operation: its declared schemas and texts, with what its hooks and options say added. */
function transform(input: TransformInput) {
  const { route, url } = input
  const declared = (input.schema ?? {}) as FastifySchema & Record<string, unknown>
  if (declared.hide) return { schema: { hide: true }, url }
  const access = accessOf(route)
  const { [OPTIONAL_SESSION]: optionalSession, ...schema } = declared
  const body = schema.body instanceof z.ZodType ? schema.body : undefined
  const documentedSchema = {
    ...schema,
    ...(access === "admin" ? { description: [schema.description, "Admin accounts only."].filter(Boolean).join(" ") } : {}),
    security: access === "public" && optionalSession ? [{}, { sessionToken: [] }] : SECURITY[access],
    // @fastify/swagger marks every body required; the transformed document unmarks those this one can do without.
    ...(body?.safeParse(undefined).success ? { "x-optional-body": true } : {}),
    response: withRefusals(refusalsOf(route, access, schema), (schema.response ?? {}) as Record<string, z.ZodType | MediaAnswer>)
  }
  return zodTransform({ ...input, schema: documentedSchema })
}

interface Operation {
  requestBody?: { required?: boolean }
  "x-optional-body"?: boolean
}

/** The names of the components the document refers to, directly or through another component. */
function referencedComponents(document: { paths?: unknown; components?: { schemas?: Record<string, unknown> } }): Set<string> {
  const found = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (value === null || typeof value !== "object") return
    for (const [key, child] of Object.entries(value)) {
      const name = key === "$ref" && typeof child === "string" && child.startsWith("#/components/schemas/") ? child.slice(21) : null
      if (name && !found.has(name)) {
        found.add(name)
        visit(document.components?.schemas?.[name])
      } else visit(child)
    }
  }
  visit(document.paths)
  return found
}

/** The whole document: the named components added, the optional bodies unmarked, the components nobody uses dropped. */
function transformObject(input: Parameters<typeof zodTransformObject>[0]) {
  const document = zodTransformObject(input) as { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } }
  recordsAsObjects(document)
  nameOperations(document.paths as DocumentPaths)
  placeExamples(document.paths as DocumentPaths)
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      if (!operation["x-optional-body"]) continue
      delete operation["x-optional-body"]
      if (operation.requestBody) operation.requestBody.required = false
    }
  }
  const used = referencedComponents(document)
  const schemas = document.components?.schemas ?? {}
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name]
  return document
}

/** The OpenAPI document, loosely: what /api/openapi.json answers (its own structure is OpenAPI's, not ours). */
const openApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown())
})

/**
 * Fastify compiles the schemas of the routes when the app starts: ours are zod, read by parseRequest and by the
 * reference, so nothing is compiled (see the opening comment). Anything but zod is a mistake, refused at start.
 */
function documentationOnly({ schema, method, url, httpPart }: { schema: unknown; method?: string; url?: string; httpPart?: string }) {
  if (!(schema instanceof z.ZodType)) {
    throw new Error(`${method} ${url}: its ${httpPart} schema must be a zod schema, which the route parses itself (server/openapi/route-docs.ts)`)
  }
  return () => true
}

/** Route schemas as documentation only: nothing validated or serialised by Fastify (see the opening comment). */
export function setDocumentationCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(documentationOnly)
  app.setSerializerCompiler(() => (data: unknown) => JSON.stringify(data))
}

/** Before any route: the compilers, and @fastify/swagger, which collects every route added after it. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  setDocumentationCompilers(app)
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: `${PRODUCT_NAME} API`,
        version: APP_VERSION,
        // LICENSE: proprietary, all rights reserved; the service is used under the site's terms.
        license: { name: "Proprietary", url: `${app.config.publicUrl}/terms` },
        description: `Every answer is JSON in one wrapper: {"success": true, "data": …} or {"success": false, "error": {"code", "message", …}}. This reference is generated from the server's routes (${OPENAPI_PATH}).`
      },
      // PUBLIC_URL: the address the server is reached at, which a generated client calls.
      servers: [{ url: app.config.publicUrl, description: "This server (PUBLIC_URL)" }],
      tags: API_TAGS.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
      components: { securitySchemes: SECURITY_SCHEMES }
    },
    // The paths stay whole (/api/...) under a PUBLIC_URL with a path of its own.
    stripBasePath: false,
    transform: transform as never,
    transformObject: transformObject as never
  })
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    theme: { title: `${PRODUCT_NAME} API reference` },
    // Our icon in the top bar, inlined as a data: URL (the policy's img-src allows it), rather than Fastify's.
    logo: { type: "image/png", content: await fs.readFile(new URL("../../assets/icon.png", import.meta.url)), href: "/", target: "_self" },
    uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0 },
    // The page's "Try it out" calls the origin the page was opened from, whatever PUBLIC_URL names: its copy of the
    // document has no servers (swagger-ui then uses its own origin). /api/openapi.json keeps them, for clients.
    transformSpecification: ({ servers: _servers, ...reference }) => reference
  })

  app.get(
    OPENAPI_PATH,
    { schema: documented({ tag: "Reference", summary: "This reference, as an OpenAPI 3.1 document", answers: { 200: jsonAnswer("The OpenAPI document", openApiDocumentSchema) } }) },
    async (_request, reply) => reply.header("cache-control", "no-cache").send(app.swagger())
  )
}
