/**
 * Safety check for the admin's regular expressions (built-in overrides and custom rules), which
 * run against every password on the server and in the browser. JavaScript regexes backtrack, so a
 * careless pattern can take seconds or years on a short input (ReDoS). The check refuses:
 *
 * - patterns longer than 200 characters (code points);
 * - patterns that do not compile with the `u` flag (the flag they always run with);
 * - backreferences (`\1`, `\k<name>`) and lookahead or lookbehind assertions;
 * - nested quantifiers: a quantified group that itself contains a quantifier (`(a+)+`, `(a*)*`,
 *   `(\w+\s?)*`, even `(a{2})+`);
 * - alternation inside a quantified group (`(a|aa)+`): every such group is refused, not only those
 *   whose branches overlap;
 * - quantifier bounds above 100 (`a{1,1000}`);
 * - group syntax other than `(...)`, `(?:...)` and `(?<name>...)` (for example the `(?i:...)`
 *   modifiers that only newer engines know);
 * - patterns with too many variable-length parts. Without nesting the remaining patterns are not
 *   linear: several quantifiers in a row trade characters with each other, so `.*.*.*x` takes
 *   O(n^4) steps (measured: 100 s on 1024 characters in Node 20) and `\w*\w*\w*\w*!` 4 s on 128
 *   characters. The check estimates the number of ways one match attempt can split the input (the
 *   product, over a sequence, of each quantifier's choices, max - min + 1, where an unbounded
 *   quantifier has 1025 choices (0 to 1024 repetitions); summed over alternatives) and refuses an
 *   estimate above 16 x 1025. In practice: at most one unbounded quantifier (`*`, `+`, `{n,}`)
 *   with a few small optional parts (`?`, `{0,3}`) beside it, or two bounded ranges such as
 *   `{0,100}`.
 *
 * What remains is cheap because the engine never looks at more than PASSWORD_POLICY_LENGTH_CAP
 * (1024) code points, and policies allow 128 by default (the schema allows maxLength up to 1024):
 * the worst accepted pattern costs about 1024 start positions x 16,400 paths, a few tens of
 * milliseconds at the cap (measured: about 30 ms for `.{0,100}.{0,100}x`) and a few at 128.
 */
import { PASSWORD_POLICY_LENGTH_CAP } from "./defaults"

export const MAX_REGEX_LENGTH = 200
export const MAX_QUANTIFIER_BOUND = 100

/** An unbounded quantifier repeats at most as often as the longest password has characters. */
const UNBOUNDED_MAX = PASSWORD_POLICY_LENGTH_CAP
/** Estimated ways to split the input, per start position (see the module comment). */
export const MAX_REGEX_PATH_ESTIMATE = 16 * (UNBOUNDED_MAX + 1)

export type RegexSafety = { ok: true } | { ok: false; reason: string }

type GroupKind = "capture" | "nonCapture" | "named" | "lookaround" | "unsupported"

type Token =
  | { type: "atom" }
  | { type: "assertion" }
  | { type: "backreference" }
  | { type: "groupOpen"; kind: GroupKind; source: string }
  | { type: "groupClose" }
  | { type: "alternation" }
  | { type: "quantifier"; min: number; max: number; source: string }

class UnsafeRegex extends Error {}

const REASONS = {
  backreference: "backreferences (\\1, \\k<name>) are not allowed",
  lookaround: "lookahead and lookbehind assertions ((?=, (?!, (?<=, (?<!) are not allowed",
  nested: "nested quantifiers are not allowed: a repeated group must not contain a quantifier (like (a+)+)",
  alternation: "alternation inside a repeated group is not allowed (like (a|aa)+)",
  bound: `quantifier bounds above ${MAX_QUANTIFIER_BOUND} are not allowed`,
  tooComplex:
    "the pattern has too many variable-length parts to be matched quickly (like .*.*x): use at most one unbounded quantifier (*, + or {n,})"
} as const

const DIGIT = /^[0-9]$/

/**
 * Splits a pattern (already known to compile with the `u` flag) into the tokens the structure
 * check needs. Works on code points, as the `u` flag does.
 */
function tokenize(pattern: string): Token[] {
  const chars = Array.from(pattern)
  const tokens: Token[] = []
  let i = 0
  const peek = (offset = 0): string | undefined => chars[i + offset]
  const take = (): string => {
    const char = chars[i]
    if (char === undefined) throw new UnsafeRegex("the pattern ends unexpectedly")
    i += 1
    return char
  }
  const takeUntil = (end: string): string => {
    let text = ""
    for (;;) {
      const char = take()
      text += char
      if (char === end) return text
    }
  }
  const takeDigits = (): string => {
    let digits = ""
    while (DIGIT.test(peek() ?? "")) digits += take()
    return digits
  }

  while (i < chars.length) {
    const char = take()
    switch (char) {
      case "\\": {
        const escaped = take()
        if (/^[1-9]$/.test(escaped) || escaped === "k") {
          tokens.push({ type: "backreference" })
          if (escaped === "k") takeUntil(">")
          else takeDigits()
        } else if (escaped === "b" || escaped === "B") {
          tokens.push({ type: "assertion" })
        } else {
          if (escaped === "p" || escaped === "P") takeUntil("}")
          else if (escaped === "u") {
            if (peek() === "{") takeUntil("}")
            else for (let k = 0; k < 4; k++) take()
          } else if (escaped === "x") {
            take()
            take()
          } else if (escaped === "c") take()
          tokens.push({ type: "atom" })
        }
        break
      }
      case "[": {
        // Inside a class (no nesting without the v flag) only an escape or the closing bracket matters.
        for (;;) {
          const inner = take()
          if (inner === "\\") take()
          else if (inner === "]") break
        }
        tokens.push({ type: "atom" })
        break
      }
      case "(": {
        if (peek() !== "?") {
          tokens.push({ type: "groupOpen", kind: "capture", source: "(" })
        } else if (peek(1) === ":") {
          i += 2
          tokens.push({ type: "groupOpen", kind: "nonCapture", source: "(?:" })
        } else if (peek(1) === "=" || peek(1) === "!") {
          i += 2
          tokens.push({ type: "groupOpen", kind: "lookaround", source: `(?${chars[i - 1] ?? ""}` })
        } else if (peek(1) === "<" && (peek(2) === "=" || peek(2) === "!")) {
          i += 3
          tokens.push({ type: "groupOpen", kind: "lookaround", source: `(?<${chars[i - 1] ?? ""}` })
        } else if (peek(1) === "<") {
          i += 2
          takeUntil(">")
          tokens.push({ type: "groupOpen", kind: "named", source: "(?<name>" })
        } else {
          tokens.push({ type: "groupOpen", kind: "unsupported", source: `(?${peek(1) ?? ""}` })
          i += 1
        }
        break
      }
      case ")":
        tokens.push({ type: "groupClose" })
        break
      case "|":
        tokens.push({ type: "alternation" })
        break
      case "^":
      case "$":
        tokens.push({ type: "assertion" })
        break
      case "*":
      case "+":
      case "?":
      case "{": {
        let min: number
        let max: number
        let source = char
        if (char === "*") [min, max] = [0, Infinity]
        else if (char === "+") [min, max] = [1, Infinity]
        else if (char === "?") [min, max] = [0, 1]
        else {
          const low = takeDigits()
          min = Number(low)
          max = min
          source += low
          if (peek() === ",") {
            source += take()
            const high = takeDigits()
            max = high === "" ? Infinity : Number(high)
            source += high
          }
          source += takeUntil("}")
        }
        if (peek() === "?") source += take() // lazy: same cost for a failing match
        tokens.push({ type: "quantifier", min, max, source })
        break
      }
      default:
        tokens.push({ type: "atom" })
    }
  }
  return tokens
}

interface Shape {
  /** Estimated ways to split the input (see the module comment). */
  paths: number
  hasQuantifier: boolean
  hasAlternation: boolean
}

/** Walks the tokens as a disjunction of sequences, refusing unsafe structure as it goes. */
function analyse(tokens: Token[]): Shape {
  let position = 0

  const disjunction = (): Shape => {
    const branches: Shape[] = [sequence()]
    while (tokens[position]?.type === "alternation") {
      position += 1
      branches.push(sequence())
    }
    return {
      paths: branches.reduce((sum, branch) => sum + branch.paths, 0),
      hasQuantifier: branches.some((branch) => branch.hasQuantifier),
      hasAlternation: branches.length > 1 || branches.some((branch) => branch.hasAlternation)
    }
  }

  const sequence = (): Shape => {
    const shape: Shape = { paths: 1, hasQuantifier: false, hasAlternation: false }
    for (;;) {
      const token = tokens[position]
      if (!token || token.type === "alternation" || token.type === "groupClose") return shape
      const term = quantified(atom())
      shape.paths *= term.paths
      shape.hasQuantifier ||= term.hasQuantifier
      shape.hasAlternation ||= term.hasAlternation
    }
  }

  const atom = (): Shape => {
    const token = tokens[position]
    position += 1
    if (!token) throw new UnsafeRegex("the pattern ends unexpectedly")
    switch (token.type) {
      case "backreference":
        throw new UnsafeRegex(REASONS.backreference)
      case "groupOpen": {
        if (token.kind === "lookaround") throw new UnsafeRegex(REASONS.lookaround)
        if (token.kind === "unsupported") throw new UnsafeRegex(`unsupported group syntax ${token.source}`)
        const inner = disjunction()
        if (tokens[position]?.type !== "groupClose") throw new UnsafeRegex("unbalanced parentheses")
        position += 1
        return inner
      }
      case "atom":
      case "assertion":
        return { paths: 1, hasQuantifier: false, hasAlternation: false }
      default:
        throw new UnsafeRegex(`unexpected ${token.type === "quantifier" ? token.source : token.type}`)
    }
  }

  const quantified = (inner: Shape): Shape => {
    const token = tokens[position]
    if (token?.type !== "quantifier") return inner
    position += 1
    if (token.min > MAX_QUANTIFIER_BOUND || (token.max !== Infinity && token.max > MAX_QUANTIFIER_BOUND)) {
      throw new UnsafeRegex(`${REASONS.bound} (${token.source})`)
    }
    if (inner.hasQuantifier) throw new UnsafeRegex(REASONS.nested)
    if (inner.hasAlternation) throw new UnsafeRegex(REASONS.alternation)
    const choices = Math.max(1, Math.min(token.max, UNBOUNDED_MAX) - token.min + 1)
    return { paths: inner.paths * choices, hasQuantifier: true, hasAlternation: false }
  }

  const shape = disjunction()
  if (position !== tokens.length) throw new UnsafeRegex("unbalanced parentheses")
  return shape
}

/** Whether a pattern may be used by the password policy; when not, a reason for the admin. */
export function checkRegexSafety(pattern: string): RegexSafety {
  if (Array.from(pattern).length > MAX_REGEX_LENGTH) {
    return { ok: false, reason: `the pattern is longer than ${MAX_REGEX_LENGTH} characters` }
  }
  try {
    new RegExp(pattern, "u")
  } catch (error) {
    return { ok: false, reason: `not a valid regular expression: ${error instanceof Error ? error.message : String(error)}` }
  }
  try {
    const shape = analyse(tokenize(pattern))
    if (shape.paths > MAX_REGEX_PATH_ESTIMATE) return { ok: false, reason: REASONS.tooComplex }
  } catch (error) {
    if (error instanceof UnsafeRegex) return { ok: false, reason: error.message }
    throw error
  }
  return { ok: true }
}

/** Thrown by compileSafeRegex for a pattern that a validated policy could not contain. */
export class UnsafeRegexError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string
  ) {
    super(`Unsafe regular expression in the password policy: ${reason}`)
    this.name = "UnsafeRegexError"
  }
}

const compiled = new Map<string, RegExp>()
const CACHE_LIMIT = 200

/**
 * The pattern compiled with the `u` flag, after checkRegexSafety; throws UnsafeRegexError for an
 * unsafe pattern (a policy that bypassed the schema). Compiled patterns are cached.
 */
export function compileSafeRegex(pattern: string): RegExp {
  const cached = compiled.get(pattern)
  if (cached) return cached
  const safety = checkRegexSafety(pattern)
  if (!safety.ok) throw new UnsafeRegexError(pattern, safety.reason)
  if (compiled.size >= CACHE_LIMIT) compiled.clear()
  const regex = new RegExp(pattern, "u")
  compiled.set(pattern, regex)
  return regex
}
