/**
 * PATCH /Users/:id (RFC 7644 §3.5.2) applied to the user's current resource, giving the resource PUT would have sent:
 * the service then has one way of changing a user. Both forms identity providers send are understood: a path
 * (`{"op":"Replace","path":"active","value":"False"}`, Microsoft Entra ID; `emails[type eq "work"].value`; `name.givenName`)
 * and a value object without one (`{"op":"replace","value":{"active":false}}`, Okta). Attributes this server does not
 * keep (an enterprise extension's department, a title) are ignored, as POST ignores them; a path it cannot read is 400.
 */
import { SCIM_USER_SCHEMA, type ScimPatchOperation } from "~core/scim"

import { ScimError } from "./scim-protocol"

export type ScimResourceBody = Record<string, unknown>
type Email = Record<string, unknown>

const ATTRIBUTES: Record<string, string> = { username: "userName", name: "name", displayname: "displayName", emails: "emails", active: "active", externalid: "externalId" }
const NAME_PARTS: Record<string, string> = { givenname: "givenName", familyname: "familyName", formatted: "formatted" }
const EMAIL_PARTS: Record<string, string> = { value: "value", type: "type", primary: "primary" }

/** [attribute][filter]?.sub? with the core schema's URN in front or not; the filter an equality on a sub-attribute. */
const PATH = /^([A-Za-z][\w$-]*)(?:\[\s*([A-Za-z]\w*)\s+eq\s+("(?:[^"\\]|\\.)*"|true|false)\s*\])?(?:\.([A-Za-z][\w$-]*))?$/i
const CORE_PREFIX = `${SCIM_USER_SCHEMA}:`

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)
const invalidPath = (path: string) => new ScimError(400, `The path ${path.slice(0, 100)} is not one this server understands.`, "invalidPath")
const invalidValue = (detail: string) => new ScimError(400, detail, "invalidValue")

interface Target {
  attribute: string
  filter: { attribute: string; value: string | boolean } | null
  sub: string | null
}

/** The attribute a path names; null for one this server does not keep (another schema's, an unknown attribute). */
function targetOf(path: string): Target | null {
  let bare = path.trim()
  if (bare.toLowerCase().startsWith(CORE_PREFIX.toLowerCase())) bare = bare.slice(CORE_PREFIX.length)
  else if (bare.toLowerCase().startsWith("urn:")) return null
  const match = PATH.exec(bare)
  if (!match) throw invalidPath(path)
  const attribute = ATTRIBUTES[match[1]!.toLowerCase()]
  if (!attribute) return null
  const literal = match[3]
  const filter = match[2] && literal !== undefined ? { attribute: match[2].toLowerCase(), value: literal.startsWith('"') ? literal.slice(1, -1).replace(/\\(.)/g, "$1") : literal === "true" } : null
  const sub = match[4] ?? null
  if (attribute !== "emails" && filter) throw invalidPath(path)
  if (attribute !== "emails" && attribute !== "name" && sub) throw invalidPath(path)
  return { attribute, filter, sub }
}

function patchName(resource: ScimResourceBody, op: ScimPatchOperation["op"], sub: string | null, value: unknown) {
  const name = isObject(resource.name) ? { ...resource.name } : {}
  if (sub) {
    const part = NAME_PARTS[sub.toLowerCase()]
    if (!part) return
    name[part] = op === "remove" ? null : value
    resource.name = name
  } else if (op === "remove") resource.name = null
  else if (isObject(value)) resource.name = { ...name, ...value }
  else throw invalidValue("name takes an object: {givenName, familyName, formatted}.")
}

function matches(email: Email, filter: NonNullable<Target["filter"]>): boolean {
  const own = email[filter.attribute === "type" ? "type" : filter.attribute === "primary" ? "primary" : "value"]
  if (typeof filter.value === "boolean") return own === filter.value || String(own).toLowerCase() === String(filter.value)
  return typeof own === "string" && own.toLowerCase() === filter.value.toLowerCase()
}

function patchEmails(resource: ScimResourceBody, op: ScimPatchOperation["op"], target: Target, value: unknown) {
  const emails: Email[] = Array.isArray(resource.emails) ? resource.emails.filter(isObject).map((email) => ({ ...email })) : []
  const sub = target.sub ? EMAIL_PARTS[target.sub.toLowerCase()] : null
  if (target.sub && !sub) return
  const { filter } = target
  if (filter) {
    if (!["type", "primary", "value"].includes(filter.attribute)) throw invalidPath(`emails[${filter.attribute} eq …]`)
    if (op === "remove") {
      resource.emails = emails.filter((email) => !matches(email, filter))
      return
    }
    const found = emails.find((email) => matches(email, filter))
    const change = sub ? { [sub]: value } : isObject(value) ? value : null
    if (!change) throw invalidValue("An e-mail takes an object: {value, type, primary}.")
    if (found) Object.assign(found, change)
    else emails.push({ ...(filter.attribute === "type" ? { type: filter.value } : {}), primary: true, ...change })
    resource.emails = emails
    return
  }
  if (sub) {
    // emails.value: the primary address's value (the first when none is marked).
    const primary = emails.find((email) => email.primary === true) ?? emails[0]
    if (op === "remove") {
      if (primary) delete primary[sub]
    } else if (primary) primary[sub] = value
    else emails.push({ [sub]: value, primary: true })
    resource.emails = emails
    return
  }
  if (op === "remove") resource.emails = []
  else {
    const given = (Array.isArray(value) ? value : [value]).map((email) => (isObject(email) ? { ...email } : email))
    // A new address marked primary takes the place of the current one: there is one address per account.
    resource.emails = op === "replace" || given.some((email) => isObject(email) && (email.primary === true || String(email.primary).toLowerCase() === "true")) ? given : [...emails, ...given]
  }
}

function applyAt(resource: ScimResourceBody, op: ScimPatchOperation["op"], path: string, value: unknown) {
  const target = targetOf(path)
  if (!target) return
  if (target.attribute === "name") return patchName(resource, op, target.sub, value)
  if (target.attribute === "emails") return patchEmails(resource, op, target, value)
  resource[target.attribute] = op === "remove" ? null : value
}

/** The primary address of a resource body (the first when none is marked), as written; undefined without one. */
export function primaryEmailOf(resource: ScimResourceBody): unknown {
  if (!Array.isArray(resource.emails)) return undefined
  const emails = resource.emails.filter(isObject)
  return (emails.find((email) => email.primary === true || String(email.primary).toLowerCase() === "true") ?? emails[0])?.value
}

/**
 * The resource after the operations, in order. The account has one address: when the operations change the primary
 * e-mail but not userName, userName follows the e-mail (Entra maps mail to emails[type eq "work"].value).
 */
export function applyPatch(current: ScimResourceBody, operations: ScimPatchOperation[]): ScimResourceBody {
  const resource: ScimResourceBody = structuredClone(current)
  for (const operation of operations) {
    if (operation.path) {
      if (operation.op !== "remove" && operation.value === undefined) throw invalidValue(`The operation on ${operation.path.slice(0, 100)} has no value.`)
      applyAt(resource, operation.op, operation.path, operation.value)
      continue
    }
    if (!isObject(operation.value)) throw new ScimError(400, "An operation without a path takes an object of attributes as its value.", "invalidValue")
    for (const [key, value] of Object.entries(operation.value)) {
      // Okta nests another schema's attributes under its URN; the core schema's may come the same way.
      if (key.toLowerCase() === SCIM_USER_SCHEMA.toLowerCase() && isObject(value)) {
        for (const [inner, innerValue] of Object.entries(value)) applyAt(resource, operation.op, inner, innerValue)
      } else applyAt(resource, operation.op, key, value)
    }
  }
  const emailChanged = primaryEmailOf(resource) !== primaryEmailOf(current)
  if (resource.userName === current.userName && emailChanged && typeof primaryEmailOf(resource) === "string") resource.userName = primaryEmailOf(resource)
  return resource
}
