import path from "node:path"

import { describe, expect, it } from "vitest"

import { ConfigError, DEFAULT_PORT, loadConfig } from "./config"

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, "/srv/app")
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
  throw new Error("expected the configuration to be refused")
}

const SECRET = "k".repeat(32)

/** Every Stripe variable set: Stripe mode. */
const STRIPE = {
  STRIPE_SECRET_KEY: "sk_live_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  STRIPE_PRICE_PRO_MONTH: "a",
  STRIPE_PRICE_PRO_YEAR: "b",
  STRIPE_PRICE_ENTERPRISE_MONTH: "c",
  STRIPE_PRICE_ENTERPRISE_YEAR: "d"
}

describe("loadConfig", () => {
  it("trusts no proxy by default, a hop count or a list of proxy addresses when told", () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toEqual({ hops: 1 })
    expect(loadConfig({ TRUST_PROXY: "10.0.0.5, 10.0.1.0/24,loopback" }).trustProxy).toEqual({ addresses: ["10.0.0.5", "10.0.1.0/24", "loopback"] })
  })

  it.each([
    ["true", /^TRUST_PROXY must be the number of proxies in front of the server .*"true" would let any client write its own address/],
    ["11", /^TRUST_PROXY must be at most 10 proxy hops/],
    ["10.0.0.5,proxy.internal", /^TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses: "proxy.internal" is not an IP address/]
  ])("refuses TRUST_PROXY=%s", (value, message) => {
    expect(problemsOf({ TRUST_PROXY: value })).toEqual([expect.stringMatching(message)])
  })

  it("uses the run contract's defaults", () => {
    const config = loadConfig({}, "/srv/app")
    expect(config.port).toBe(DEFAULT_PORT)
    expect(config.port).toBe(8787)
    expect(config.host).toBe("127.0.0.1")
    expect(config.dataDir).toBe(path.resolve("/srv/app/data"))
    expect(config.publicUrl).toBe("http://localhost:8787")
    expect(config.webRoot).toBe(path.resolve("/srv/app/dist/web"))
    expect(config.ocrLanguagesDir).toBeUndefined()
    expect(config.databaseUrl).toBeUndefined()
    expect(config.smtpUrl).toBeUndefined()
    expect(config.admin).toBeUndefined()
    expect(config.openai).toEqual({ apiKey: undefined, baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini" })
    expect(config.firebase).toEqual({ projectId: undefined, webApiKey: undefined, authDomain: undefined, authEmulatorHost: undefined })
  })

  it("reads the Firebase project, the web client's public settings and the test emulator", () => {
    const config = loadConfig({
      FIREBASE_PROJECT_ID: "shop-1",
      FIREBASE_WEB_API_KEY: " AIza-public ",
      FIREBASE_AUTH_DOMAIN: "login.shop.example",
      FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099"
    })
    expect(config.firebase).toEqual({ projectId: "shop-1", webApiKey: "AIza-public", authDomain: "login.shop.example", authEmulatorHost: "127.0.0.1:9099" })
  })

  it("is in Stripe mode only with every Stripe variable set, and in test mode with none", () => {
    expect(loadConfig({}).stripe).toBeUndefined()
    const stripe = loadConfig({
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1",
      STRIPE_PRICE_PRO_MONTH: "price_a",
      STRIPE_PRICE_PRO_YEAR: "price_b",
      STRIPE_PRICE_ENTERPRISE_MONTH: "price_c",
      STRIPE_PRICE_ENTERPRISE_YEAR: "price_d"
    }).stripe
    expect(stripe).toEqual({ secretKey: "sk_test_1", webhookSecret: "whsec_1", prices: { pro: { month: "price_a", year: "price_b" }, enterprise: { month: "price_c", year: "price_d" } }, apiBase: undefined })
  })

  it("keeps uploads in S3 only with every object storage variable set, and reads REDIS_URL", () => {
    expect(loadConfig({}).s3).toBeUndefined()
    expect(loadConfig({ S3_ENDPOINT: "http://127.0.0.1:9000", S3_BUCKET: "uploads", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "secret" }).s3).toEqual({
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      bucket: "uploads",
      accessKeyId: "id",
      secretAccessKey: "secret"
    })
    expect(loadConfig({ REDIS_URL: "redis://cache:6379" }).redisUrl).toBe("redis://cache:6379")
  })

  it("reads OCR_LANGUAGES_DIR relative to the working folder, and a blank one as none", () => {
    expect(loadConfig({ OCR_LANGUAGES_DIR: "packs/ocr" }, "/srv/app").ocrLanguagesDir).toBe(path.resolve("/srv/app/packs/ocr"))
    expect(loadConfig({ OCR_LANGUAGES_DIR: "/opt/tessdata" }, "/srv/app").ocrLanguagesDir).toBe(path.resolve("/opt/tessdata"))
    expect(loadConfig({ OCR_LANGUAGES_DIR: "  " }, "/srv/app").ocrLanguagesDir).toBeUndefined()
  })

  it("honours PORT, DATA_DIR and derives PUBLIC_URL from the port", () => {
    const config = loadConfig({ PORT: "9100", DATA_DIR: "/var/lib/iqa" }, "/srv/app")
    expect(config.port).toBe(9100)
    expect(config.dataDir).toBe("/var/lib/iqa")
    expect(config.publicUrl).toBe("http://localhost:9100")
  })

  it("keeps an explicit PUBLIC_URL without its trailing slash", () => {
    expect(loadConfig({ PUBLIC_URL: "https://app.example.com/" }).publicUrl).toBe("https://app.example.com")
  })

  it("treats empty variables as unset", () => {
    const config = loadConfig({ DATABASE_URL: "", SMTP_URL: " ", OPENAI_API_KEY: "" }, "/srv/app")
    expect(config.databaseUrl).toBeUndefined()
    expect(config.smtpUrl).toBeUndefined()
    expect(config.openai.apiKey).toBeUndefined()
  })

  it.each([
    [{ PORT: "abc" }, /^PORT must be a whole number from 1 to 65535 \(got "abc"\)$/],
    [{ PORT: "0" }, /^PORT must be a whole number/],
    [{ PORT: "70000" }, /^PORT must be a whole number/],
    [{ PORT: "80.5" }, /^PORT must be a whole number/],
    [{ PUBLIC_URL: "localhost:8787" }, /^PUBLIC_URL must be a URL starting with http:\/\/ or https:\/\//],
    [{ DATABASE_URL: "mysql://db/app" }, /^DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\/.*\(value hidden\)$/],
    [{ SMTP_URL: "http://mail" }, /^SMTP_URL must be a URL starting with smtp:\/\/ or smtps:\/\//],
    [{ ADMIN_EMAIL: "not-an-email", ADMIN_PASSWORD: "x" }, /^ADMIN_EMAIL must be an e-mail address/],
    [{ ADMIN_EMAIL: "admin@example.com" }, /^ADMIN_PASSWORD must be set together with ADMIN_EMAIL and ADMIN_PASSWORD$/],
    [{ TOKEN_SECRET: "short" }, /^TOKEN_SECRET must be at least 32 characters long \(value hidden\)$/],
    [{ LOG_LEVEL: "loud" }, /^LOG_LEVEL must be one of/],
    [{ NODE_ENV: "staging" }, /^NODE_ENV must be development, production or test/],
    [{ NODE_ENV: "production", TOKEN_SECRET: SECRET, SMTP_URL: "smtp://mail.example.com", BILLING_MODE: "test", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" }, /^FIREBASE_AUTH_EMULATOR_HOST must not be set in production/],
    [{ STRIPE_SECRET_KEY: "sk_live_x", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PRICE_PRO_MONTH: "a", STRIPE_PRICE_PRO_YEAR: "b", STRIPE_PRICE_ENTERPRISE_MONTH: "c" }, /^STRIPE_PRICE_ENTERPRISE_YEAR must be set with the other Stripe variables/],
    [{ NODE_ENV: "production", TOKEN_SECRET: SECRET, SMTP_URL: "smtp://mail.example.com", ...STRIPE, STRIPE_API_BASE: "http://127.0.0.1:1" }, /^STRIPE_API_BASE must not be set in production/],
    [{ NODE_ENV: "production", TOKEN_SECRET: SECRET, SMTP_URL: "smtp://mail.example.com" }, /^STRIPE_SECRET_KEY must be set in production, .*test mode, where Stripe's test card gives anyone a paid plan\. To run test mode on purpose, set BILLING_MODE=test$/],
    [{ BILLING_MODE: "stripe" }, /^STRIPE_SECRET_KEY must be set with the other Stripe variables \(.*\) when BILLING_MODE is stripe$/],
    [{ BILLING_MODE: "test", ...STRIPE }, /^BILLING_MODE is test, but the STRIPE_\* variables are set/],
    [{ BILLING_MODE: "live" }, /^BILLING_MODE must be stripe or test/],
    [{ NODE_ENV: "production", SMTP_URL: "smtp://mail.example.com", BILLING_MODE: "test" }, /^TOKEN_SECRET must be set in production .* every database role and every backup can read it$/],
    [{ S3_ENDPOINT: "http://127.0.0.1:9000", S3_BUCKET: "uploads", S3_ACCESS_KEY_ID: "id" }, /^S3_SECRET_ACCESS_KEY must be set with the other object storage variables \(S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID are set\)/],
    [{ REDIS_URL: "http://cache" }, /^REDIS_URL must be a URL starting with redis:\/\/ or rediss:\/\/.*\(value hidden\)$/],
    [{ NODE_ENV: "production", TOKEN_SECRET: SECRET, BILLING_MODE: "test" }, /^SMTP_URL must be set in production: without it e-mails .* never reach anyone$/],
    [{ NODE_ENV: "production", TOKEN_SECRET: SECRET, SMTP_URL: " ", BILLING_MODE: "test" }, /^SMTP_URL must be set in production/]
  ])("refuses %o with a message naming the variable", (env, expected) => {
    const problems = problemsOf(env)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(expected)
  })

  it("starts in production with SMTP_URL and Stripe, or test mode chosen on purpose", () => {
    const withStripe = loadConfig({ NODE_ENV: "production", TOKEN_SECRET: SECRET, SMTP_URL: "smtps://user:pw@smtp.example.com:465", ...STRIPE })
    expect(withStripe.smtpUrl).toBe("smtps://user:pw@smtp.example.com:465")
    expect(withStripe.billingMode).toBe("stripe")
    expect(loadConfig({ NODE_ENV: "production", TOKEN_SECRET: SECRET, SMTP_URL: "smtp://mail.example.com", BILLING_MODE: "test" }).billingMode).toBe("test")
    expect(loadConfig({}).billingMode).toBe("test")
  })

  it("asks admins for two-step sign-in in production unless ADMIN_MFA=optional, and not elsewhere unless ADMIN_MFA=required", () => {
    const production = { NODE_ENV: "production", TOKEN_SECRET: SECRET, SMTP_URL: "smtp://mail.example.com", BILLING_MODE: "test" }
    expect(loadConfig(production).adminMfa).toBe("required")
    expect(loadConfig({ ...production, ADMIN_MFA: "optional" }).adminMfa).toBe("optional")
    expect(loadConfig({}).adminMfa).toBe("optional")
    expect(loadConfig({ NODE_ENV: "test" }).adminMfa).toBe("optional")
    expect(loadConfig({ ADMIN_MFA: "required" }).adminMfa).toBe("required")
    expect(problemsOf({ ADMIN_MFA: "yes" })).toEqual(['ADMIN_MFA must be required or optional (got "yes")'])
  })

  it("reads DNS_SERVERS as addresses with ports, and ENCRYPTION_KEY of 32 characters or more", () => {
    expect(loadConfig({}).dnsServers).toEqual([])
    expect(loadConfig({ DNS_SERVERS: " 127.0.0.1:5353, [::1]:53,10.0.0.2 " }).dnsServers).toEqual(["127.0.0.1:5353", "[::1]:53", "10.0.0.2"])
    expect(problemsOf({ DNS_SERVERS: "dns.example.com" })[0]).toMatch(/^DNS_SERVERS must be a comma-separated list of IP addresses/)
    expect(loadConfig({ ENCRYPTION_KEY: SECRET }).encryptionKey).toBe(SECRET)
    expect(problemsOf({ ENCRYPTION_KEY: "short" })[0]).toMatch(/^ENCRYPTION_KEY must be at least 32 characters long/)
  })

  it("reports every bad variable at once", () => {
    const problems = problemsOf({ PORT: "abc", PUBLIC_URL: "nope" })
    expect(problems.map((problem) => problem.split(" ")[0])).toEqual(["PORT", "PUBLIC_URL"])
  })

  it("never prints secret values", () => {
    const problems = problemsOf({ DATABASE_URL: "mysql://user:hunter2@db/app" })
    expect(problems.join("\n")).not.toContain("hunter2")
  })
})
