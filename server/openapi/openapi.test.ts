/**
 * The API reference against the server's own route table: every route Fastify registered is in GET /api/openapi.json
 * but the declared exclusions, each fully described; and the document holds together as OpenAPI 3.1 (every reference
 * resolves, every path parameter is declared, every schema compiles as JSON Schema 2020-12). The answers themselves
 * are checked against it in answers.test.ts.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core"
import Fastify from "fastify"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as z from "zod"

import { ok } from "~core/api-answer"

import { registerErrorHandling, signInRequired } from "../http/errors"
import type { TestApp } from "../test-kit"
import { DOCS_PREFIX, PATH_FORMS, UNDOCUMENTED_ROUTES, setDocumentationCompilers } from "./openapi"
import { openApiPath, schemaCompiler, startDocumentedApp, type OpenApiDocument, type Operation, type RegisteredRoute } from "./openapi-test-kit"
import { OPERATION_IDS, operationKey } from "./operation-ids"
import { API_TAGS, documented, parseRequest, ROUTE_EXAMPLE, type MediaAnswer } from "./route-docs"

let subject: TestApp
let routes: RegisteredRoute[]
let document: OpenApiDocument

/** The server's public address as production sets it: the document's server (Redocly flags localhost there). */
const PUBLIC_URL = "https://imagequery.test"

beforeAll(async () => {
  ;({ subject, routes, document } = await startDocumentedApp({ PUBLIC_URL }))
})
afterAll(async () => subject?.close())

const key = (route: RegisteredRoute) => `${route.method} ${route.url}`
const operationOf = (route: RegisteredRoute): Operation | undefined => document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]
const operations = () => Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))

describe("GET /api/openapi.json against the route table", () => {
  it("lists every route the server registered, but the declared exclusions", () => {
    const missing = routes.filter((route) => !UNDOCUMENTED_ROUTES.includes(key(route)) && !operationOf(route)).map(key)
    expect(missing, "routes missing from the API reference").toEqual([])
    // Every exclusion is a real route the document leaves out: the list cannot hide a route by mistake or go stale.
    const registered = new Set(routes.map(key))
    expect(UNDOCUMENTED_ROUTES.filter((excluded) => !registered.has(excluded))).toEqual([])
    expect(routes.filter((route) => UNDOCUMENTED_ROUTES.includes(key(route)) && operationOf(route)).map(key)).toEqual([])
    expect(UNDOCUMENTED_ROUTES.every((excluded) => excluded === "GET /*" || excluded.startsWith(`GET ${DOCS_PREFIX}`) || excluded.includes(" /scim/v2/") || excluded in PATH_FORMS)).toBe(true)
    // A path form repeats a route the reference does document.
    expect(Object.values(PATH_FORMS).filter((documentedForm) => !routes.some((route) => key(route) === documentedForm && operationOf(route)))).toEqual([])
  })

  it("documents nothing the server does not answer", () => {
    const registered = new Set(routes.map((route) => `${route.method.toLowerCase()} ${openApiPath(route.url)}`))
    const extra = operations().filter(({ path, method }) => !registered.has(`${method} ${path}`) && !(method === "head" && registered.has(`get ${path}`)))
    expect(extra.map(({ method, path }) => `${method} ${path}`)).toEqual([])
  })

  it("describes each route: summary, section, who may call it, its success answer's schema and its refusals", () => {
    const incomplete: string[] = []
    for (const route of routes) {
      const operation = operationOf(route)
      if (!operation) continue
      const problems = [
        !operation.summary && "no summary",
        !(operation.tags?.length === 1 && (API_TAGS as readonly string[]).includes(operation.tags[0]!)) && `tags ${JSON.stringify(operation.tags)}`,
        !Array.isArray(operation.security) && "no security",
        // A redirect (the SSO callback) answers no body: its Location is the answer.
        !Object.entries(operation.responses).some(([status, answer]) => (/^2\d\d$/.test(status) && answer.content && Object.values(answer.content).every((media) => media.schema)) || /^30[237]$/.test(status)) &&
          "no success answer with a schema",
        !operation.responses.default?.content?.["application/json"]?.schema && "no error wrapper"
      ].filter(Boolean)
      if (problems.length) incomplete.push(`${key(route)}: ${problems.join(", ")}`)
    }
    expect(incomplete).toEqual([])
  })

  it("says who may call each route as its hooks decide: a session, an admin's session, an API key, or anyone", () => {
    const security = (url: string, method: string) => document.paths[url]![method]!.security
    expect(security("/api/status", "get")).toEqual([])
    expect(security("/api/auth/profile", "get")).toEqual([{ sessionToken: [] }])
    expect(security("/api/admin/overview", "get")).toEqual([{ sessionToken: [] }])
    expect(document.paths["/api/admin/overview"]!.get!.responses["403"]).toBeDefined()
    expect(security("/api/v1/usage", "get")).toEqual([{ apiKey: [] }])
    expect(security("/api/auth/logout", "post")).toEqual([{}, { sessionToken: [] }])
    // A bare session route can refuse with 401 and nothing about admins.
    expect(document.paths["/api/auth/profile"]!.get!.responses["403"]).toBeUndefined()
    expect(document.paths["/api/auth/login"]!.post!.responses["429"]!.description).toContain("RATE_LIMIT_EXCEEDED")
  })
})

/** The value a JSON pointer ("#/components/schemas/User") names in the document, or undefined. */
function resolvePointer(pointer: string): unknown {
  if (!pointer.startsWith("#/")) return undefined
  return pointer
    .slice(2)
    .split("/")
    .map((segment) => decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, segment) => (node !== null && typeof node === "object" ? (node as Record<string, unknown>)[segment] : undefined), document)
}

function collectReferences(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => collectReferences(item, found))
  else if (value !== null && typeof value === "object") {
    for (const [name, child] of Object.entries(value)) {
      if (name === "$ref" && typeof child === "string") found.push(child)
      else collectReferences(child, found)
    }
  }
  return found
}

describe("the document's structure (OpenAPI 3.1)", () => {
  it("is OpenAPI 3.1 with a title, a version and the sections it uses", () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/)
    expect(document.info.title).toBeTruthy()
    expect(document.info.version).toBeTruthy()
    const declared = new Set(document.tags?.map((tag) => tag.name))
    expect(operations().flatMap(({ operation }) => operation.tags ?? []).filter((tag) => !declared.has(tag))).toEqual([])
  })

  it("resolves every $ref inside the document", () => {
    const references = collectReferences(document)
    expect(references.length).toBeGreaterThan(0)
    expect(references.filter((reference) => resolvePointer(reference) === undefined)).toEqual([])
  })

  it("declares each path parameter of each operation, required, and no other", () => {
    const problems: string[] = []
    for (const { path, method, operation } of operations()) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1])
      const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === "path")
      for (const name of inPath) if (!declared.some((parameter) => parameter.name === name && parameter.required)) problems.push(`${method} ${path}: {${name}} not declared`)
      for (const parameter of declared) if (!inPath.includes(parameter.name)) problems.push(`${method} ${path}: ${parameter.name} is no path parameter`)
      const names = (operation.parameters ?? []).map((parameter) => `${parameter.in}:${parameter.name}`)
      if (new Set(names).size !== names.length) problems.push(`${method} ${path}: a parameter is declared twice`)
    }
    expect(problems).toEqual([])
  })

  it("gives every operation responses with descriptions, and uses only declared security schemes", () => {
    const schemes = new Set(Object.keys(document.components?.securitySchemes ?? {}))
    const problems: string[] = []
    const operationIds: string[] = []
    for (const { path, method, operation } of operations()) {
      if (operation.operationId) operationIds.push(operation.operationId)
      if (Object.keys(operation.responses).length === 0) problems.push(`${method} ${path}: no responses`)
      for (const [status, answer] of Object.entries(operation.responses)) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${method} ${path}: status ${status}`)
        if (!answer.description) problems.push(`${method} ${path} ${status}: no description`)
      }
      for (const requirement of operation.security ?? []) for (const name of Object.keys(requirement)) if (!schemes.has(name)) problems.push(`${method} ${path}: scheme ${name}`)
    }
    expect(problems).toEqual([])
    expect(new Set(operationIds).size).toBe(operationIds.length)
  })

  it("holds schemas that compile as JSON Schema 2020-12, with JSON Schema's keywords only", () => {
    const compile = schemaCompiler(document)
    const failures: string[] = []
    const tryCompile = (where: string, schema: unknown) => {
      try {
        compile(schema)
      } catch (error) {
        failures.push(`${where}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) tryCompile(`components.schemas.${name}`, schema)
    for (const { path, method, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) tryCompile(`${method} ${path} ${parameter.in} ${parameter.name}`, parameter.schema)
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) tryCompile(`${method} ${path} body ${type}`, media.schema)
      for (const [status, answer] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(answer.content ?? {})) tryCompile(`${method} ${path} ${status} ${type}`, media.schema)
      }
    }
    expect(failures).toEqual([])
  }, 60_000)
})

describe("what client generators and linters read", () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const config = await createConfig({ extends: ["recommended"] })
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config })
    const found = problems.map((problem) => ({ place: `${problem.ruleId} ${problem.location[0]?.pointer}`, said: `${problem.severity}: ${problem.message}` }))
    expect(found.map(({ place, said }) => `${place} ${said}`)).toEqual([])
  }, 60_000)

  it("names its server by PUBLIC_URL and its licence; /api/docs's copy names none, so that Try it out calls the page's origin", async () => {
    expect(document.servers).toEqual([{ url: PUBLIC_URL, description: expect.any(String) }])
    expect(document.info.license).toEqual({ name: "Proprietary", url: `${PUBLIC_URL}/terms` })
    const pageCopy = (await subject.app.inject({ method: "GET", url: `${DOCS_PREFIX}/json` })).json() as OpenApiDocument
    expect([pageCopy.servers, Object.keys(pageCopy.paths)]).toEqual([undefined, Object.keys(document.paths)])
  })

  it("gives every operation the operationId of OPERATION_IDS: each route has its entry, none stale, each unique and camelCase", () => {
    const documentedRoutes = routes.filter((route) => !UNDOCUMENTED_ROUTES.includes(key(route)))
    expect(documentedRoutes.filter((route) => !OPERATION_IDS[key(route)]).map(key), "routes without an entry in server/openapi/operation-ids.ts").toEqual([])
    // The document's operations, the HEAD of a GET and HEAD route included (routes leaves HEADs out).
    const inDocument = new Set(operations().map(({ path, method }) => operationKey(method, path)))
    expect(Object.keys(OPERATION_IDS).filter((entry) => !inDocument.has(entry)), "entries of no route").toEqual([])
    const ids = Object.values(OPERATION_IDS)
    expect(ids.filter((id, index) => ids.indexOf(id) !== index), "ids used twice").toEqual([])
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id)), "ids not camelCase").toEqual([])
    expect(operations().filter(({ path, method, operation }) => operation.operationId !== OPERATION_IDS[operationKey(method, path)]).map(({ path, method }) => `${method} ${path}`)).toEqual([])
  })

  it("shows a request and an answer of each /api/v1 call, each valid against its own schema in the document and in zod", () => {
    const compile = schemaCompiler(document)
    const problems: string[] = []
    const check = (where: string, schema: unknown, example: unknown) => {
      const validate = compile(schema)
      if (!validate(example)) problems.push(`${where}: ${JSON.stringify(validate.errors)}`)
    }
    const v1 = routes.filter((route) => route.url.startsWith("/api/v1/"))
    expect(v1.length).toBeGreaterThanOrEqual(6)
    for (const route of v1) {
      const operation = operationOf(route)!
      const jsonBody = operation.requestBody?.content["application/json"]
      const query = (operation.parameters ?? []).filter((parameter) => parameter.in === "query")
      const answer = operation.responses["200"]?.content?.["application/json"]
      if (answer?.example === undefined) problems.push(`${key(route)}: no answer example`)
      else check(`${key(route)} answer`, answer.schema, answer.example)
      if (jsonBody) {
        if (jsonBody.example === undefined) problems.push(`${key(route)}: no request example`)
        else check(`${key(route)} request`, jsonBody.schema, jsonBody.example)
      }
      for (const parameter of query) if (parameter.example !== undefined) check(`${key(route)} query ${parameter.name}`, parameter.schema, parameter.example)
      if (!jsonBody && query.length && query.every((parameter) => parameter.example === undefined)) problems.push(`${key(route)}: no request example`)
      // The same examples through the route's own zod schemas, which also hold the rules JSON Schema cannot say.
      const declared = route.schema as { [ROUTE_EXAMPLE]?: { request?: unknown; answer: unknown }; body?: z.ZodType; querystring?: z.ZodType; response?: Record<string, MediaAnswer> }
      const example = declared[ROUTE_EXAMPLE]
      const input = declared.body ?? declared.querystring
      if (example?.request !== undefined && input && !input.safeParse(example.request).success) problems.push(`${key(route)} request: refused by its zod schema`)
      const answerSchema = declared.response?.["200"]?.content?.["application/json"]?.schema
      if (example && answerSchema && !answerSchema.safeParse(example.answer).success) problems.push(`${key(route)} answer: refused by its zod schema`)
    }
    expect(problems).toEqual([])
  })
})

describe("a route's input, read through what it declares", () => {
  const declared = z.strictObject({ name: z.string().min(1) })
  const other = z.strictObject({ name: z.string() })

  async function probe() {
    const app = Fastify()
    registerErrorHandling(app)
    setDocumentationCompilers(app)
    const schema = documented({ tag: "Reference", summary: "probe", body: declared, data: { 200: declared } })
    app.post("/declared", { schema }, async (request) => ok(parseRequest(request, "body", declared)))
    app.post("/other", { schema }, async (request) => ok(parseRequest(request, "body", other)))
    // Authorisation in a preHandler, as most routes do it: it still comes before the input is judged.
    app.post("/guarded", { schema, preHandler: async () => Promise.reject(signInRequired()) }, async (request) => ok(parseRequest(request, "body", declared)))
    await app.ready()
    return app
  }

  it("parses with the declared schema, refusing bad input as VALIDATION_FAILED with details; a schema not declared is a fault", async () => {
    const app = await probe()
    const post = async (url: string, payload: unknown) => {
      const response = await app.inject({ method: "POST", url, payload: payload as object })
      return [response.statusCode, response.json()] as const
    }
    expect(await post("/declared", { name: "Ada" })).toEqual([200, { success: true, data: { name: "Ada" } }])
    expect(await post("/declared", { name: "" })).toEqual([400, expect.objectContaining({ error: expect.objectContaining({ code: "VALIDATION_FAILED", details: [expect.stringMatching(/^name: /)] }) })])
    expect((await post("/other", { name: "Ada" }))[0]).toBe(500)
    // Fastify compiles nothing: the authorisation answers before the body is looked at.
    expect(await post("/guarded", { name: 42 })).toEqual([401, expect.objectContaining({ error: expect.objectContaining({ code: "UNAUTHORIZED" }) })])
    await app.close()
  })

  it("refuses at start a route whose schema is not zod", async () => {
    const app = Fastify()
    setDocumentationCompilers(app)
    app.post("/json-schema", { schema: { body: { type: "object" } } }, async () => ok(true))
    await expect(app.ready()).rejects.toThrow(/must be a zod schema/)
  })
})
