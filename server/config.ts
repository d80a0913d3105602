import path from "node:path"

import * as z from "zod"

import { BILLING_MODES, type BillingMode } from "~core/billing/billing"

import { MAX_PROXY_HOPS, proxyAddressProblem, type ProxyTrust } from "./http/client-address"

export const DEFAULT_PORT = 8787
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
export const DEFAULT_VQA_MODEL = "gpt-4o-mini"

export interface AppConfig {
  nodeEnv: "development" | "production" | "test"
  host: string
  port: number
  dataDir: string
  publicUrl: string
  /** Folder of the static web build; the site routes answer 503 when it holds no index.html. */
  webRoot: string
  /** Folder of operator-supplied <code>.traineddata(.gz) OCR packs (a tessdata folder), served besides (and over) the npm ones; none when unset. */
  ocrLanguagesDir: string | undefined
  /** DNS servers ("host:port") the domain checks ask instead of the system's; empty: the system's. */
  dnsServers: string[]
  /** Development and tests: an organisation's identity provider may be http:// on this machine. Refused in production. */
  ssoAllowInsecureIssuer: boolean
  /** Development and tests: webhooks may be sent to http:// on this machine. Refused in production. */
  webhooksAllowLoopback: boolean
  /** Worker threads of the public API's local models (OCR, faces, objects); one per CPU when unset. */
  visionThreads: number | undefined
  databaseUrl: string | undefined
  /** redis:// URL: the shared limits live there instead of the database. */
  redisUrl: string | undefined
  /** S3-compatible object storage for uploads; DATA_DIR when absent. */
  s3: S3Config | undefined
  smtpUrl: string | undefined
  admin: { email: string; password: string } | undefined
  openai: { apiKey: string | undefined; baseUrl: string; model: string }
  firebase: {
    projectId: string | undefined
    /** The web client's public settings (not secrets): served to the site by GET /api/auth/firebase-config. */
    webApiKey: string | undefined
    authDomain: string | undefined
    /** Tests only (refused in production); firebase-admin reads it from process.env, for the whole process. */
    authEmulatorHost: string | undefined
  }
  /** Set in Stripe mode, and only then. */
  stripe: StripeConfig | undefined
  /**
   * How payments are taken: through Stripe when STRIPE_* are set, else in test mode (no card charged, Stripe's test
   * cards accepted). Production refuses test mode unless BILLING_MODE=test says it is meant.
   */
  billingMode: BillingMode
  /** Signs access tokens; required in production. Unset elsewhere: generated once into DATA_DIR or the shared database. */
  tokenSecret: string | undefined
  /** Seals the secrets the database keeps (an authenticator app's); the token secret does when unset. */
  encryptionKey: string | undefined
  trustProxy: ProxyTrust
  /**
   * Whether an admin needs a second factor (two-step sign-in) to use /api/admin and the other admin routes: an admin
   * session opens every account, so in production a password alone does not. Required there unless set to optional.
   */
  adminMfa: AdminMfa
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent"
}

export interface StripeConfig {
  secretKey: string
  webhookSecret: string
  prices: { pro: { month: string; year: string }; enterprise: { month: string; year: string } }
  /** Tests only: the origin of a Stripe API stand-in. */
  apiBase: string | undefined
}

export interface S3Config {
  endpoint: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
}

export const ADMIN_MFA_VALUES = ["required", "optional"] as const
export type AdminMfa = (typeof ADMIN_MFA_VALUES)[number]

/** The object storage variables: all of them set (uploads in the bucket) or none (uploads in DATA_DIR). */
export const S3_VARIABLES = ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const

/** The Stripe variables: all of them set (Stripe mode) or none (test mode). */
export const STRIPE_VARIABLES = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_PRICE_PRO_MONTH",
  "STRIPE_PRICE_PRO_YEAR",
  "STRIPE_PRICE_ENTERPRISE_MONTH",
  "STRIPE_PRICE_ENTERPRISE_YEAR"
] as const

/** A configuration problem a person can fix: printed as is, without a stack trace. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`)
    this.name = "ConfigError"
  }
}

const optionalText = z
  .string()
  .transform((value) => value.trim())
  .transform((value) => (value === "" ? undefined : value))
  .optional()

const urlWithProtocols = (protocols: string[], example: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol)
      } catch {
        return false
      }
    }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")} (for example ${example})`)

const optionalUrl = (protocols: string[], example: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    urlWithProtocols(protocols, example).optional()
  )

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"], {
      message: "must be development, production or test"
    }).default("development"),
    HOST: z.string().trim().min(1, "must not be empty").default("127.0.0.1"),
    PORT: z
      .string()
      .trim()
      .regex(/^\d+$/, "must be a whole number from 1 to 65535")
      .transform(Number)
      .refine((port) => port >= 1 && port <= 65535, "must be a whole number from 1 to 65535")
      .optional(),
    DATA_DIR: z.string().trim().min(1, "must not be empty").default("./data"),
    PUBLIC_URL: optionalUrl(["http:", "https:"], "https://app.example.com"),
    WEB_ROOT: optionalText,
    OCR_LANGUAGES_DIR: optionalText,
    SSO_ALLOW_INSECURE_ISSUER: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
    WEBHOOKS_ALLOW_LOOPBACK: z.enum(["true", "false"], { message: "must be true or false" }).optional(),
    DNS_SERVERS: optionalText.transform((value, context) => {
      const servers = (value ?? "").split(",").map((server) => server.trim()).filter(Boolean)
      const wrong = servers.find((server) => !/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\])(:\d{1,5})?$/i.test(server))
      if (wrong) {
        context.addIssue({ code: "custom", message: `must be a comma-separated list of IP addresses with an optional port, such as 10.0.0.2:53 or [::1]:5353 ("${wrong}" is not)` })
        return z.NEVER
      }
      return servers
    }),
    VISION_THREADS: z
      .string()
      .trim()
      .regex(/^\d+$/, "must be a whole number from 1 to 64")
      .transform(Number)
      .refine((threads) => threads >= 1 && threads <= 64, "must be a whole number from 1 to 64")
      .optional(),
    DATABASE_URL: optionalUrl(["postgres:", "postgresql:"], "postgres://user:password@localhost:5432/imagequery"),
    SMTP_URL: optionalUrl(["smtp:", "smtps:"], "smtps://user:password@smtp.example.com:465"),
    REDIS_URL: optionalUrl(["redis:", "rediss:"], "redis://localhost:6379"),
    S3_ENDPOINT: optionalUrl(["http:", "https:"], "https://s3.eu-west-1.amazonaws.com"),
    S3_REGION: optionalText,
    S3_BUCKET: optionalText,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    ADMIN_EMAIL: optionalText.pipe(z.email({ message: "must be an e-mail address" }).optional()),
    ADMIN_PASSWORD: optionalText,
    OPENAI_API_KEY: optionalText,
    OPENAI_BASE_URL: optionalUrl(["http:", "https:"], DEFAULT_OPENAI_BASE_URL),
    VQA_MODEL: optionalText,
    FIREBASE_PROJECT_ID: optionalText,
    FIREBASE_WEB_API_KEY: optionalText,
    FIREBASE_AUTH_DOMAIN: optionalText,
    FIREBASE_AUTH_EMULATOR_HOST: optionalText,
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    STRIPE_PRICE_PRO_MONTH: optionalText,
    STRIPE_PRICE_PRO_YEAR: optionalText,
    STRIPE_PRICE_ENTERPRISE_MONTH: optionalText,
    STRIPE_PRICE_ENTERPRISE_YEAR: optionalText,
    BILLING_MODE: z.enum(BILLING_MODES, { message: `must be ${BILLING_MODES.join(" or ")}` }).optional(),
    STRIPE_API_BASE: optionalUrl(["http:", "https:"], "http://127.0.0.1:12111"),
    TOKEN_SECRET: optionalText.pipe(
      z.string().min(32, "must be at least 32 characters long").optional()
    ),
    ENCRYPTION_KEY: optionalText.pipe(z.string().min(32, "must be at least 32 characters long").optional()),
    TRUST_PROXY: optionalText.transform((value, context): ProxyTrust => {
      if (value === undefined || value === "false" || value === "0") return false
      if (value === "true") {
        context.addIssue({
          code: "custom",
          message: `must be the number of proxies in front of the server (for example 1) or their addresses (for example 10.0.0.5,10.0.1.0/24); "true" would let any client write its own address`
        })
        return z.NEVER
      }
      if (/^\d+$/.test(value)) {
        const hops = Number(value)
        if (hops <= MAX_PROXY_HOPS) return { hops }
        context.addIssue({ code: "custom", message: `must be at most ${MAX_PROXY_HOPS} proxy hops` })
        return z.NEVER
      }
      const addresses = value.split(",").map((entry) => entry.trim())
      const problems = addresses.map(proxyAddressProblem).filter((problem) => problem !== null)
      if (problems.length === 0) return { addresses }
      context.addIssue({ code: "custom", message: `must be a number of proxy hops or a comma-separated list of proxy addresses: ${problems.join("; ")}` })
      return z.NEVER
    }),
    ADMIN_MFA: z.enum(ADMIN_MFA_VALUES, { message: `must be ${ADMIN_MFA_VALUES.join(" or ")}` }).optional(),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        message: "must be one of fatal, error, warn, info, debug, trace, silent"
      })
      .optional()
  })
  .superRefine((env, context) => {
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      context.addIssue({
        code: "custom",
        path: [env.ADMIN_EMAIL ? "ADMIN_PASSWORD" : "ADMIN_EMAIL"],
        message: "must be set together with ADMIN_EMAIL and ADMIN_PASSWORD"
      })
    }
    if (env.NODE_ENV === "production" && !env.SMTP_URL) {
      context.addIssue({
        code: "custom",
        path: ["SMTP_URL"],
        message: "must be set in production: without it e-mails (with their sign-in and reset links) are only written to files in DATA_DIR/outbox and never reach anyone"
      })
    }
    if (env.NODE_ENV === "production" && !env.TOKEN_SECRET) {
      context.addIssue({
        code: "custom",
        path: ["TOKEN_SECRET"],
        message:
          "must be set in production (at least 32 random characters, the same on every instance): the key generated when it is unset is kept in DATA_DIR or the shared database, where every database role and every backup can read it"
      })
    }
    /** A group of variables that only works whole: each one missing from a group partly set is named. */
    const allOrNone = (names: readonly (keyof typeof env)[], group: string, whenUnset: string) => {
      const set = names.filter((name) => env[name])
      if (set.length === 0) return
      for (const name of names.filter((name) => !env[name])) {
        context.addIssue({ code: "custom", path: [name], message: `must be set with the other ${group} variables (${set.join(", ")} ${set.length === 1 ? "is" : "are"} set); leave them all unset ${whenUnset}` })
      }
    }
    allOrNone(S3_VARIABLES, "object storage", "to keep uploads in DATA_DIR")
    allOrNone(STRIPE_VARIABLES, "Stripe", "for test mode")
    billingModeProblems(env).forEach((problem) => context.addIssue({ code: "custom", ...problem }))
    if (env.NODE_ENV === "production" && env.STRIPE_API_BASE) {
      context.addIssue({ code: "custom", path: ["STRIPE_API_BASE"], message: "must not be set in production: it sends Stripe calls, with the secret key, to another server" })
    }
    if (env.NODE_ENV === "production" && env.SSO_ALLOW_INSECURE_ISSUER === "true") {
      context.addIssue({ code: "custom", path: ["SSO_ALLOW_INSECURE_ISSUER"], message: "must not be true in production: it lets an organisation's sign-in go through an unencrypted provider on the server's own network" })
    }
    if (env.NODE_ENV === "production" && env.WEBHOOKS_ALLOW_LOOPBACK === "true") {
      context.addIssue({ code: "custom", path: ["WEBHOOKS_ALLOW_LOOPBACK"], message: "must not be true in production: it lets webhooks reach the server's own machine over unencrypted http" })
    }
    if (env.NODE_ENV === "production" && env.FIREBASE_AUTH_EMULATOR_HOST) {
      context.addIssue({
        code: "custom",
        path: ["FIREBASE_AUTH_EMULATOR_HOST"],
        message: "must not be set in production: the emulator accepts unsigned tokens"
      })
    }
  })

/**
 * Test mode gives a paid plan to anyone who types Stripe's test card: production runs it only when BILLING_MODE=test
 * says so, and BILLING_MODE must agree with the Stripe variables.
 */
function billingModeProblems(env: { NODE_ENV: string; BILLING_MODE?: BillingMode } & Partial<Record<(typeof STRIPE_VARIABLES)[number], string>>): { path: string[]; message: string }[] {
  const stripeSet = STRIPE_VARIABLES.some((name) => env[name])
  if (env.BILLING_MODE === "test" && stripeSet) {
    return [{ path: ["BILLING_MODE"], message: "is test, but the STRIPE_* variables are set: unset them for test mode, or unset BILLING_MODE to take payments through Stripe" }]
  }
  if (env.BILLING_MODE === "stripe" && !stripeSet) {
    return [{ path: ["STRIPE_SECRET_KEY"], message: `must be set with the other Stripe variables (${STRIPE_VARIABLES.join(", ")}) when BILLING_MODE is stripe` }]
  }
  if (env.NODE_ENV === "production" && !stripeSet && env.BILLING_MODE !== "test") {
    return [
      {
        path: ["STRIPE_SECRET_KEY"],
        message: `must be set in production, with the other Stripe variables (${STRIPE_VARIABLES.slice(1).join(", ")}): without Stripe, billing runs in test mode, where Stripe's test card gives anyone a paid plan. To run test mode on purpose, set BILLING_MODE=test`
      }
    ]
  }
  return []
}

/** The variables the server reads; anything else in the environment is ignored. */
export const CONFIG_VARIABLES = Object.keys(environmentSchema.shape)

function describeReceived(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]
  if (value === undefined) return ""
  if (/PASSWORD|SECRET|KEY|SMTP_URL|DATABASE_URL|REDIS_URL/.test(name)) return " (value hidden)"
  return ` (got ${JSON.stringify(value)})`
}

/** Reads and validates the environment. Throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const parsed = environmentSchema.safeParse(env)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment")
      return `${name} ${issue.message}${describeReceived(env, name)}`
    })
    throw new ConfigError(problems)
  }
  const vars = parsed.data
  const port = vars.PORT ?? DEFAULT_PORT
  return {
    nodeEnv: vars.NODE_ENV,
    host: vars.HOST,
    port,
    dataDir: path.resolve(cwd, vars.DATA_DIR),
    publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    webRoot: path.resolve(cwd, vars.WEB_ROOT ?? "dist/web"),
    dnsServers: vars.DNS_SERVERS,
    ssoAllowInsecureIssuer: vars.SSO_ALLOW_INSECURE_ISSUER === "true",
    webhooksAllowLoopback: vars.WEBHOOKS_ALLOW_LOOPBACK === "true",
    ocrLanguagesDir: vars.OCR_LANGUAGES_DIR === undefined ? undefined : path.resolve(cwd, vars.OCR_LANGUAGES_DIR),
    visionThreads: vars.VISION_THREADS,
    databaseUrl: vars.DATABASE_URL,
    redisUrl: vars.REDIS_URL,
    s3:
      vars.S3_ENDPOINT && vars.S3_BUCKET && vars.S3_ACCESS_KEY_ID && vars.S3_SECRET_ACCESS_KEY
        ? { endpoint: vars.S3_ENDPOINT, region: vars.S3_REGION ?? "us-east-1", bucket: vars.S3_BUCKET, accessKeyId: vars.S3_ACCESS_KEY_ID, secretAccessKey: vars.S3_SECRET_ACCESS_KEY }
        : undefined,
    smtpUrl: vars.SMTP_URL,
    admin:
      vars.ADMIN_EMAIL && vars.ADMIN_PASSWORD
        ? { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD }
        : undefined,
    openai: {
      apiKey: vars.OPENAI_API_KEY,
      baseUrl: (vars.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, ""),
      model: vars.VQA_MODEL ?? DEFAULT_VQA_MODEL
    },
    firebase: {
      projectId: vars.FIREBASE_PROJECT_ID,
      webApiKey: vars.FIREBASE_WEB_API_KEY,
      authDomain: vars.FIREBASE_AUTH_DOMAIN,
      authEmulatorHost: vars.FIREBASE_AUTH_EMULATOR_HOST
    },
    stripe:
      vars.STRIPE_SECRET_KEY && vars.STRIPE_WEBHOOK_SECRET && vars.STRIPE_PRICE_PRO_MONTH && vars.STRIPE_PRICE_PRO_YEAR && vars.STRIPE_PRICE_ENTERPRISE_MONTH && vars.STRIPE_PRICE_ENTERPRISE_YEAR
        ? {
            secretKey: vars.STRIPE_SECRET_KEY,
            webhookSecret: vars.STRIPE_WEBHOOK_SECRET,
            prices: {
              pro: { month: vars.STRIPE_PRICE_PRO_MONTH, year: vars.STRIPE_PRICE_PRO_YEAR },
              enterprise: { month: vars.STRIPE_PRICE_ENTERPRISE_MONTH, year: vars.STRIPE_PRICE_ENTERPRISE_YEAR }
            },
            apiBase: vars.STRIPE_API_BASE
          }
        : undefined,
    billingMode: vars.BILLING_MODE ?? (vars.STRIPE_SECRET_KEY ? "stripe" : "test"),
    tokenSecret: vars.TOKEN_SECRET,
    encryptionKey: vars.ENCRYPTION_KEY,
    trustProxy: vars.TRUST_PROXY,
    adminMfa: vars.ADMIN_MFA ?? (vars.NODE_ENV === "production" ? "required" : "optional"),
    logLevel: vars.LOG_LEVEL ?? (vars.NODE_ENV === "test" ? "silent" : "info")
  }
}
