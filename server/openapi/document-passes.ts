/**
 * What openapi.ts does to the whole document once @fastify/swagger and the zod conversion have built it, so that
 * client generators and linters (Redocly's recommended rules, openapi-typescript) take it as it is:
 * - each operation gets its operationId from OPERATION_IDS;
 * - a route's example (documented({ example })) is placed in its JSON body or query parameters and its success answer;
 * - a record with listed keys (zod's z.record(z.enum([...]), V)) becomes the object it is, with its properties.
 */
import { OPERATION_IDS, operationKey } from "./operation-ids"
import { ROUTE_EXAMPLE } from "./route-docs"

interface Media {
  schema?: unknown
  example?: unknown
}

interface Parameter {
  in: string
  name: string
  example?: unknown
}

export interface DocumentOperation {
  operationId?: string
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content?: Record<string, Media> }
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>
  [ROUTE_EXAMPLE]?: { request?: unknown; answer: unknown }
}

export type DocumentPaths = Record<string, Record<string, DocumentOperation>>

const JSON_TYPE = "application/json"

/**
 * Every operation named after OPERATION_IDS. @fastify/swagger gives the GET and HEAD of one route the same operation
 * object: each method gets a copy of its own. An operation the table lacks keeps none (the test names it).
 */
export function nameOperations(paths: DocumentPaths): void {
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const operationId = OPERATION_IDS[operationKey(method, path)]
      if (operationId) operations[method] = { ...operation, operationId }
    }
  }
}

/** The operation with its example in place: the request in its JSON body (or query parameters), the answer in its success's JSON. */
function withExample(operation: DocumentOperation): DocumentOperation {
  const { [ROUTE_EXAMPLE]: example, ...placed } = operation
  if (!example) return operation
  const request = example.request as Record<string, unknown> | undefined
  const body = placed.requestBody?.content?.[JSON_TYPE]
  if (request !== undefined && body) {
    // Copies all the way down: the body's media object is shared with its other media types (multipart/form-data).
    placed.requestBody = { ...placed.requestBody, content: { ...placed.requestBody!.content, [JSON_TYPE]: { ...body, example: request } } }
  } else if (request !== undefined) {
    placed.parameters = placed.parameters?.map((parameter) => (parameter.in === "query" && parameter.name in request ? { ...parameter, example: request[parameter.name] } : parameter))
  }
  const success = Object.keys(placed.responses ?? {}).find((status) => /^2\d\d$/.test(status) && placed.responses![status]!.content?.[JSON_TYPE])
  if (success) {
    const answer = placed.responses![success]!
    placed.responses = { ...placed.responses, [success]: { ...answer, content: { ...answer.content, [JSON_TYPE]: { ...answer.content![JSON_TYPE], example: example.answer } } } }
  }
  return placed
}

export function placeExamples(paths: DocumentPaths): void {
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) operations[method] = withExample(operation)
  }
}

type JsonSchemaNode = Record<string, unknown>

const isNode = (value: unknown): value is JsonSchemaNode => value !== null && typeof value === "object" && !Array.isArray(value)

/**
 * zod writes z.record(z.enum(["ocr", "faces"]), V) as { propertyNames: { enum }, additionalProperties: V, required:
 * ["ocr", "faces"] }: valid JSON Schema, but `required` then names properties the schema does not define, which
 * linters flag and generators type as a bare map. The same object with its properties says it plainly:
 * { properties: { ocr: V, faces: V }, required, additionalProperties: false }.
 */
function recordAsObject(node: JsonSchemaNode): void {
  const keys = isNode(node.propertyNames) ? node.propertyNames.enum : undefined
  if (node.properties || !Array.isArray(keys) || !keys.every((key) => typeof key === "string") || !isNode(node.additionalProperties)) return
  const value = node.additionalProperties
  node.properties = Object.fromEntries(keys.map((key) => [key, value]))
  node.additionalProperties = false
  delete node.propertyNames
}

/** Every schema of the document (paths and components alike) with its records of listed keys as objects. */
export function recordsAsObjects(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(recordsAsObjects)
  if (!isNode(value)) return
  if (value.type === "object") recordAsObject(value)
  for (const child of Object.values(value)) recordsAsObjects(child)
}
