/**
 * What every message boundary shares: the result of checking an incoming message, the `{ success, error? }`
 * answer, and the definition of a message from which its type, its check and its type guard all come.
 *
 * No zod at run time here, on purpose: the content scripts import this (through the dispatcher and the page
 * messages), they run in every frame of every page, and Plasmo's bundler does not tree-shake, so importing zod
 * would add all of it (some 450 kB with its locales) to each of them. The site protocol, read only by the site and
 * the service worker, checks with zod (see parseWith); the page messages, which content scripts read, are defined
 * with field checks (see defineMessage).
 */
import type { z } from "zod"

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string }

/** `raw` through a zod schema: the parsed message, or the message of the first problem found, in the schema's words. */
export function parseWith<T>(schema: z.ZodType<T>, raw: unknown): ParseResult<T> {
  const result = schema.safeParse(raw)
  return result.success ? { ok: true, message: result.data } : { ok: false, error: result.error.issues[0]?.message ?? "Invalid message" }
}

/** A check of one field that also tells TypeScript the field's type. */
export type FieldCheck<T> = (value: unknown) => value is T

type FieldChecks = Record<string, FieldCheck<unknown>>
type CheckedFields<Checks extends FieldChecks> = { [Key in keyof Checks]: Checks[Key] extends FieldCheck<infer T> ? T : never }

export interface MessageDefinition<Type extends string, Message> {
  type: Type
  parse(raw: unknown): ParseResult<Message>
  is(raw: unknown): raw is Message
}

/**
 * The message `{ type, ...fields }`, each field with its check; `invalid` is what a sender of a malformed one is
 * told. Fields not named are ignored.
 */
export function defineMessage<Type extends string, Checks extends FieldChecks>(
  type: Type,
  fields: Checks,
  invalid = `Invalid ${type} message`
): MessageDefinition<Type, { type: Type } & CheckedFields<Checks>> {
  type Message = { type: Type } & CheckedFields<Checks>
  const is = (raw: unknown): raw is Message => {
    if (typeof raw !== "object" || raw === null || (raw as { type?: unknown }).type !== type) return false
    return Object.entries(fields).every(([key, check]) => check((raw as Record<string, unknown>)[key]))
  }
  return { type, is, parse: (raw) => (is(raw) ? { ok: true, message: raw } : { ok: false, error: invalid }) }
}

/** The type of the messages a definition describes. */
export type MessageOf<Definition> = Definition extends MessageDefinition<string, infer Message> ? Message : never

/** How a message is answered, on every boundary: success, or the reason in words. */
export type ExtensionAnswer = { success: true } | { success: false; error: string }

export function extensionSuccessAnswer(): ExtensionAnswer {
  return { success: true }
}

export function extensionErrorAnswer(error: unknown): ExtensionAnswer {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "Unknown error"
  return { success: false, error: message || "Unknown error" }
}
