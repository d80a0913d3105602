/**
 * What the API reference's tests share: the app with its route table, the document it serves, and a check of a real
 * answer against what the document says the route answers for that status (JSON Schema 2020-12, with ajv).
 */
import { createRequire } from "node:module"

import type { LightMyRequestResponse, RouteOptions } from "fastify"
import { expect } from "vitest"

import { startTestApp, type TestApp } from "../test-kit"
import { OPENAPI_PATH } from "./openapi"

export interface MediaObject {
  schema?: unknown
  example?: unknown
}

export interface ResponseObject {
  description?: string
  content?: Record<string, MediaObject>
}

export interface Operation {
  summary?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  operationId?: string
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown; example?: unknown }[]
  requestBody?: { required?: boolean; content: Record<string, MediaObject> }
  responses: Record<string, ResponseObject>
}

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; license?: { name: string; url?: string; identifier?: string } }
  servers?: { url: string; description?: string }[]
  tags?: { name: string }[]
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> }
}

/** A route as Fastify registered it: one per method, with the schemas it declares (route-docs.ts's documented()). */
export interface RegisteredRoute {
  method: string
  url: string
  schema?: Record<string, unknown>
}

/** A Fastify path in OpenAPI's form: /api/feedback/:id is /api/feedback/{id}. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, "{$1}")

/** The app with every route Fastify registered (automatic HEAD routes left out: they follow their GET), and its document. */
export async function startDocumentedApp(env: Record<string, string> = {}): Promise<{ subject: TestApp; routes: RegisteredRoute[]; document: OpenApiDocument }> {
  const all: RegisteredRoute[] = []
  // One thread for the public API's models: the answers' test calls each once.
  const subject = await startTestApp(env, {
    visionPool: { threads: 1 },
    onRoute: (route: RouteOptions) => {
      for (const method of [route.method].flat()) all.push({ method, url: route.url, schema: route.schema as Record<string, unknown> | undefined })
    }
  })
  // Fastify adds a HEAD to each GET, also to the "/" variant of a prefixed route's "" (/api/docs/ for /api/docs).
  const withoutSlash = (url: string) => url.replace(/(.)\/$/, "$1")
  const gets = new Set(all.filter((route) => route.method === "GET").map((route) => withoutSlash(route.url)))
  const routes = all.filter((route) => route.method !== "HEAD" || !gets.has(withoutSlash(route.url)))
  const response = await subject.app.inject({ method: "GET", url: OPENAPI_PATH })
  expect(response.statusCode).toBe(200)
  return { subject, routes, document: response.json() as OpenApiDocument }
}

interface ValidateFunction {
  (data: unknown): boolean
  errors?: unknown[] | null
}

interface Ajv {
  addSchema(schema: object): unknown
  compile(schema: object): ValidateFunction
}

/**
 * ajv 8 as Fastify itself depends on it (fastify → @fastify/ajv-compiler → ajv): the package named "ajv" at the top of
 * node_modules is ESLint's ajv 6, which knows no JSON Schema 2020-12, the dialect of OpenAPI 3.1.
 */
function loadAjv2020(): new (options: object) => Ajv {
  const fromHere = createRequire(import.meta.url)
  const fromFastify = createRequire(fromHere.resolve("fastify"))
  const fromCompiler = createRequire(fromFastify.resolve("@fastify/ajv-compiler"))
  return (fromCompiler("ajv/dist/2020") as { default: new (options: object) => Ajv }).default
}

const COMPONENTS_ID = "https://reference.invalid/components"

/**
 * Compiles schemas of the document, their references to components.schemas resolved. strict: a schema may use JSON
 * Schema's keywords only (an unknown or contradictory one is a fault of the document); formats are annotations here
 * (zod writes a pattern beside each).
 */
export function schemaCompiler(document: OpenApiDocument, { strict = true } = {}) {
  const Ajv2020 = loadAjv2020()
  // JSON Schema allows what strict mode would refuse here: a list of types (zod's ["number", "string"] for such a
  // union), and required names without properties (zod's record with enum keys: every key present).
  const ajv = new Ajv2020({ strict, strictRequired: false, allowUnionTypes: true, allErrors: true, validateFormats: false })
  const pointing = (schema: unknown, to: string) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${to}#/$defs/`)) as object
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: pointing(document.components?.schemas ?? {}, "") })
  return (schema: unknown) => ajv.compile(pointing(schema, COMPONENTS_ID))
}

/**
 * Checks a real answer against the document: the status is documented (a 2xx by itself, an error at least by
 * `default`), the media type is one the status lists, and a JSON body matches its schema.
 */
export function answerChecker(document: OpenApiDocument) {
  const compile = schemaCompiler(document, { strict: false })
  const cache = new Map<unknown, ValidateFunction>()
  return function expectDocumentedAnswer(method: string, url: string, response: LightMyRequestResponse): void {
    const name = `${method} ${url} answered ${response.statusCode}`
    const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()]
    expect(operation, `${method} ${url} is in the document`).toBeDefined()
    const status = String(response.statusCode)
    const documented = operation!.responses[status] ?? (response.statusCode >= 400 ? operation!.responses.default : undefined)
    expect(documented, `${name}, which its operation does not document`).toBeDefined()
    if (!documented!.content) {
      expect(response.body, `${name} with a body, documented without one`).toBe("")
      return
    }
    const mediaType = String(response.headers["content-type"]).split(";")[0]!.trim()
    const media = documented!.content[mediaType]
    expect(media, `${name} as ${mediaType}; documented: ${Object.keys(documented!.content).join(", ")}`).toBeDefined()
    if (!mediaType.endsWith("json")) return
    let validate = cache.get(media!.schema)
    if (!validate) cache.set(media!.schema, (validate = compile(media!.schema)))
    const body: unknown = JSON.parse(response.body)
    expect(validate(body) ? [] : validate.errors, `${name}: ${response.body.slice(0, 400)}`).toEqual([])
  }
}
