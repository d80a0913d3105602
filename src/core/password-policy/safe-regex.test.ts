// @vitest-environment node
import { describe, expect, it } from "vitest"

import { checkRegexSafety, compileSafeRegex, MAX_REGEX_LENGTH, UnsafeRegexError } from "./safe-regex"

function reasonOf(pattern: string): string {
  const result = checkRegexSafety(pattern)
  if (result.ok) throw new Error(`expected ${pattern} to be refused`)
  return result.reason
}

describe("checkRegexSafety", () => {
  it.each([
    "^[^\\s]+$",
    "[A-Z].*[0-9]",
    "(?:ab)+",
    "(ab)+",
    "(?<pair>ab){2}",
    "\\p{Lu}",
    "[\\p{L}\\d]",
    "^\\S{8,64}$",
    "colou?r",
    "a{1,100}",
    "a{100}",
    "[(]+[)]",
    "[\\]\\[]+x",
    "\\u{1F600}+",
    "😀+",
    "foo|bar|baz",
    "^(?:admin|root)$",
    "\\bpass\\B",
    ".*a?a?a?a?x",
    ".{0,100}.{0,100}x",
    "(?:)*",
    "\\d.*\\d",
    "[a-z]{2,5}-?[0-9]{1,3}"
  ])("accepts %s", (pattern) => {
    expect(checkRegexSafety(pattern)).toEqual({ ok: true })
  })

  it.each([
    ["(a+)+", /nested quantifiers/],
    ["(a*)*", /nested quantifiers/],
    ["(\\w+\\s?)*", /nested quantifiers/],
    ["(?:a{2})+", /nested quantifiers/],
    ["((a)+)+", /nested quantifiers/],
    ["(?<x>a?){3}", /nested quantifiers/],
    ["(a|aa)+", /alternation inside a repeated group/],
    ["(?:a|b)*", /alternation inside a repeated group/],
    ["((?:a|b))+", /alternation inside a repeated group/],
    ["(a)\\1", /backreferences/],
    ["(?<x>a)\\k<x>", /backreferences/],
    ["(?=a)", /lookahead and lookbehind/],
    ["(?!a)b", /lookahead and lookbehind/],
    ["(?<=a)b", /lookahead and lookbehind/],
    ["(?<!a)b", /lookahead and lookbehind/],
    ["a{1,1000}", /bounds above 100.*\{1,1000\}/],
    ["a{101}", /bounds above 100/],
    ["a{101,}", /bounds above 100/],
    ["a{1,99999999999999999999}", /bounds above 100/],
    [".*.*x", /too many variable-length parts/],
    ["\\w*\\w*\\w*\\w*!", /too many variable-length parts/],
    [".*x.*x.*y", /too many variable-length parts/],
    ["a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?a?aaaaaaaaaaaaaaaaaaaa", /too many variable-length parts/],
    ["(?:a*|b*).*", /too many variable-length parts/],
    ["(", /not a valid regular expression/],
    ["[a-", /not a valid regular expression/],
    ["a{2,1}", /not a valid regular expression/],
    ["\\q", /not a valid regular expression/], // an identity escape is an error with the u flag
    ["x{", /not a valid regular expression/],
    ["*a", /not a valid regular expression/]
  ])("refuses %s", (pattern, reason) => {
    expect(reasonOf(pattern)).toMatch(reason)
  })

  it("refuses patterns longer than 200 characters and counts code points", () => {
    expect(checkRegexSafety("a".repeat(MAX_REGEX_LENGTH))).toEqual({ ok: true })
    expect(reasonOf("a".repeat(MAX_REGEX_LENGTH + 1))).toMatch(/longer than 200 characters/)
    expect(checkRegexSafety("😀".repeat(MAX_REGEX_LENGTH))).toEqual({ ok: true })
  })

  it("keeps every accepted pattern fast on the longest password the engine checks", () => {
    const worst = [".*.?.?.?.?x", ".{0,100}.{0,100}x", "\\w+\\d?\\d?\\d?\\d?!", "[A-Z].*[0-9]"]
    const input = "a".repeat(1024)
    for (const pattern of worst) {
      expect(checkRegexSafety(pattern)).toEqual({ ok: true })
      const started = performance.now()
      new RegExp(pattern, "u").test(input)
      expect(performance.now() - started).toBeLessThan(1000)
    }
  })
})

describe("compileSafeRegex", () => {
  it("compiles with the u flag and caches", () => {
    const regex = compileSafeRegex("\\p{Lu}")
    expect(regex.flags).toBe("u")
    expect(regex.test("É")).toBe(true)
    expect(compileSafeRegex("\\p{Lu}")).toBe(regex)
  })

  it("throws UnsafeRegexError with the reason", () => {
    expect(() => compileSafeRegex("(a+)+")).toThrow(UnsafeRegexError)
    expect(() => compileSafeRegex("(a+)+")).toThrow(/nested quantifiers/)
  })
})
