import helmet from "@fastify/helmet"
import rateLimit from "@fastify/rate-limit"
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify"

import { FEATURE_FLAGS } from "~core/feature-flags"
import type { FeedbackFlags } from "~core/admin/feedback"
import type { Clock } from "~core/time"

import { adminAnalyticsRoutes } from "./admin/analytics/routes"
import { adminBillingRoutes } from "./admin/billing/routes"
import { adminRoutes } from "./admin/routes"
import { adminUserRoutes } from "./admin/users/routes"
import { apiKeyRoutes } from "./api-keys/routes"
import { auditRoutes } from "./audit/routes"
import type { VisionModelOptions } from "./vision-model/vision-model-service"
import { visionModelRoutes } from "./vision-model/routes"
import { ensureAdminAccount } from "./auth/admin-bootstrap"
import { registerAuthentication } from "./auth/authenticate"
import { billingRoutes } from "./billing/routes"
import { blogRoutes } from "./blog/routes"
import { extensionSessionRoutes } from "./auth/extension-session"
import { firebaseWebConfig, googleSignInPageSources } from "./auth/google/google-identity"
import { googleAuthRoutes } from "./auth/google/routes"
import { authRoutes } from "./auth/routes"
import { mfaRoutes } from "./auth/mfa/routes"
import { passkeyRoutes } from "./auth/mfa/passkey-routes"
import { sealingKeys, type SealingKeys } from "./auth/mfa/secret-box"
import type { AppConfig } from "./config"
import { embeddedDatabaseDir, openDatabase, type Database } from "./db/database"
import type { FeedbackLimits } from "./feedback/feedback-form"
import { feedbackRoutes } from "./feedback/routes"
import { clientAddressKey, fastifyTrustProxy } from "./http/client-address"
import { answerFrameworkError, registerErrorHandling } from "./http/errors"
import { REDACTED_LOG_PATHS, serializeRequest } from "./http/logging"
import { sharedRateLimitStore, type PerIpLimit } from "./http/rate-limit"
import { databaseLimitStore } from "./limits/database-limit-store"
import type { LimitStore } from "./limits/limit-store"
import { redisLimitStore } from "./limits/redis-limits"
import { FEEDBACK_IMAGES_PREFIX, feedbackImagesDir } from "./feedback/image-store"
import { folderStorage } from "./storage/folder-storage"
import type { ObjectStorage } from "./storage/object-storage"
import { s3Storage } from "./storage/s3-storage"
import { DEFAULT_REQUEST_TIMEOUTS, requestTimeoutOptions, type RequestTimeouts } from "./http/request-limits"
import { createOutboxMailer, createSmtpMailer, outboxDir, type Mailer } from "./mail/mailer"
import { DEFAULT_OUTBOX_TIMINGS, Outbox, type OutboxTimings } from "./mail/outbox"
import { OcrLanguageCatalogue } from "./ocr-languages/catalogue"
import { ocrPackCacheDir } from "./ocr-languages/compressed-packs"
import { ocrLanguageRoutes } from "./ocr-languages/routes"
import { registerOpenApi } from "./openapi/openapi"
import { passwordPolicyRoutes } from "./password-policy/routes"
import { domainRoutes } from "./organizations/domains/domain-routes"
import { organizationRoutes } from "./organizations/routes"
import { ssoRoutes } from "./organizations/sso/sso-routes"
import { scimRoutes } from "./organizations/scim/scim-routes"
import { scimTokenRoutes } from "./organizations/scim/scim-token-routes"
import { ssoSignInRoutes } from "./organizations/sso/sso-sign-in-routes"
import { publicApiRoutes } from "./public-api/routes"
import type { VisionPoolOptions } from "./local-vision/vision-pool"
import { loadOrCreateDatabaseSecret, loadOrCreateSecret } from "./secret-store"
import { statusRoutes } from "./status/routes"
import { webRoutes } from "./web/routes"
import { webhookRoutes } from "./webhooks/webhook-routes"
import { DEFAULT_WEBHOOK_TIMINGS, WebhookWorker, type WebhookTimings } from "./webhooks/webhook-worker"

export interface AppDependencies {
  /** An already open database (tests share one); otherwise opened from the config and closed with the app. */
  database?: Database
  clock?: Clock
  mailer?: Mailer
  /** The vision model's and image URLs' time-outs, the loopback allowance of image URLs: set by tests only, never from the environment. */
  visionModel?: VisionModelOptions
  /** The feedback feature flags; FEATURE_FLAGS.feedback unless a test switches them. */
  feedbackFlags?: FeedbackFlags
  /** How long a request may take to arrive; tests shorten it. */
  requestTimeouts?: Partial<RequestTimeouts>
  /** Where log lines go instead of standard output: tests read them. */
  logStream?: { write(line: string): void }
  /** Mail, body and disk limits of the feedback form; tests lower them. */
  feedbackLimits?: Partial<FeedbackLimits>
  /** Language pack downloads per IP address; tests lower it. */
  ocrDownloadLimit?: PerIpLimit
  /** Told of every route as it is added: the generated bad-input and authorisation tests read the route table. */
  onRoute?: (route: RouteOptions) => void
  /** The public API's pool of local models: tests make it small (threads, queue, time limit). */
  visionPool?: VisionPoolOptions
  /** The e-mail outbox's poll, lease and retry times; tests shorten them. */
  outboxTimings?: Partial<OutboxTimings>
  /** The webhook worker's poll, lease, time-out and retry times; tests shorten them. */
  webhookTimings?: Partial<WebhookTimings>
}

declare module "fastify" {
  interface FastifyInstance {
    config: AppConfig
    database: Database
    mailer: Mailer
    tokenSecret: string
    /** What seals secrets the database keeps (server/auth/mfa/secret-box): ENCRYPTION_KEY, then the token secret. */
    sealingKeys: SealingKeys
    clock: Clock
    /** Counters every instance shares: per-IP limits, cooldowns (server/limits). */
    limits: LimitStore
    /** Where uploaded images are kept: DATA_DIR, or the S3 bucket (server/storage). */
    objectStorage: ObjectStorage
  }
}

/** Sweeps forgotten keys out of the database's limits now and then; limits hold without it. */
const LIMIT_SWEEP_INTERVAL_MS = 10 * 60_000

/** The shared limits: in Redis when REDIS_URL is set, else in the database; closed with the app. */
async function sharedLimits(config: AppConfig, database: Database, app: FastifyInstance, clock: Clock): Promise<LimitStore> {
  const limits = config.redisUrl ? await redisLimitStore(config.redisUrl) : databaseLimitStore(database.db)
  const sweeper = setInterval(() => void limits.sweep(clock()).catch((error: unknown) => app.log.warn({ err: error }, "limit sweep failed")), LIMIT_SWEEP_INTERVAL_MS)
  sweeper.unref()
  app.addHook("onClose", async () => {
    clearInterval(sweeper)
    await limits.close()
  })
  return limits
}

/** The content security policy the site runs under: our own origin, plus Google sign-in's when it is configured. */
export function contentSecurityPolicy(config: AppConfig) {
  const google = googleSignInPageSources(config.firebase)
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...google.script],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'", ...google.connect],
      frameSrc: ["'self'", ...google.frame],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: config.publicUrl.startsWith("https:") ? [] : null
    }
  }
}

export async function buildApp(config: AppConfig, dependencies: AppDependencies = {}): Promise<FastifyInstance> {
  const clock = dependencies.clock ?? Date.now
  const startedAt = clock()
  const app = Fastify({
    ...requestTimeoutOptions({ ...DEFAULT_REQUEST_TIMEOUTS, ...dependencies.requestTimeouts }),
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_LOG_PATHS, censor: "[redacted]" },
      serializers: { req: serializeRequest },
      ...(dependencies.logStream ? { stream: dependencies.logStream } : {})
    },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    frameworkErrors: answerFrameworkError
  })
  if (dependencies.onRoute) app.addHook("onRoute", dependencies.onRoute)

  const ownsDatabase = !dependencies.database
  const database =
    dependencies.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      embeddedDir: config.databaseUrl ? undefined : embeddedDatabaseDir(config.dataDir)
    }))
  if (ownsDatabase) app.addHook("onClose", async () => database.close())

  const mailer =
    dependencies.mailer ??
    (config.smtpUrl ? createSmtpMailer(config.smtpUrl) : createOutboxMailer(outboxDir(config.dataDir), clock))
  app.addHook("onClose", async () => mailer.close())
  // Only a database this process opened itself is used by no other: then claims a crashed run left are freed at start.
  const outbox = new Outbox({
    db: database.db,
    mailer,
    log: app.log,
    clock,
    timings: { ...DEFAULT_OUTBOX_TIMINGS, ...dependencies.outboxTimings },
    singleProcess: ownsDatabase && database.kind === "embedded"
  })
  app.decorate("outbox", outbox)
  // Hooks close last-added first: the worker finishes the e-mails it holds before the mailer and the database close.
  app.addHook("onClose", async () => outbox.close())
  // Started once every route has registered what answers its e-mail requests.
  app.addHook("onReady", async () => outbox.start())

  app.decorate("config", config)
  app.decorate("mailer", mailer)
  app.decorate("database", database)
  app.decorate("limits", await sharedLimits(config, database, app, clock))
  app.decorate("objectStorage", config.s3 ? s3Storage(config.s3, FEEDBACK_IMAGES_PREFIX) : folderStorage(feedbackImagesDir(config.dataDir)))
  app.decorate("clock", clock)
  // The embedded database serves one process, whose DATA_DIR keeps the key; instances sharing PostgreSQL share it there.
  const generatedSecret = () => (database.kind === "postgres" ? loadOrCreateDatabaseSecret(database.db, "token-secret") : loadOrCreateSecret(config.dataDir, "token-secret"))
  app.decorate("tokenSecret", config.tokenSecret ?? (await generatedSecret()))
  app.decorate("sealingKeys", sealingKeys(config, app.tokenSecret))
  // Like the e-mail outbox: the worker finishes the deliveries it holds before the database closes; started when ready.
  const webhooks = new WebhookWorker({
    db: database.db,
    log: app.log,
    clock,
    sealingKeys: app.sealingKeys,
    timings: { ...DEFAULT_WEBHOOK_TIMINGS, ...dependencies.webhookTimings },
    allowLoopback: config.webhooksAllowLoopback,
    singleProcess: ownsDatabase && database.kind === "embedded"
  })
  app.decorate("webhooks", webhooks)
  app.addHook("onClose", async () => webhooks.close())
  app.addHook("onReady", async () => webhooks.start())

  registerErrorHandling(app)
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    strictTransportSecurity: config.publicUrl.startsWith("https:"),
    crossOriginEmbedderPolicy: false,
    // Google's sign-in popup answers through its opener: "same-origin" would cut that link.
    crossOriginOpenerPolicy: { policy: firebaseWebConfig(config.firebase).enabled ? "same-origin-allow-popups" : "same-origin" }
  })

  // Limits are set per route (sign-in, registration, e-mail look-ups), not globally.
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => clientAddressKey(request.ip),
    store: sharedRateLimitStore(app.limits, clock)
  })
  registerAuthentication(app)
  // Before every route: the reference is generated from the routes added after it.
  await registerOpenApi(app)

  await app.register(statusRoutes, { database, startedAt, now: clock, webRoot: config.webRoot, tokenSecret: app.tokenSecret })
  await app.register(authRoutes)
  await app.register(mfaRoutes)
  await app.register(passkeyRoutes)
  await app.register(googleAuthRoutes)
  await app.register(extensionSessionRoutes)
  await app.register(visionModelRoutes, dependencies.visionModel ?? {})
  await app.register(passwordPolicyRoutes)
  await app.register(feedbackRoutes, { flags: dependencies.feedbackFlags ?? FEATURE_FLAGS.feedback, limits: dependencies.feedbackLimits })
  // One catalogue for the packs the extension downloads and those the public API reads with.
  const ocrCatalogue = new OcrLanguageCatalogue({ operatorFolder: config.ocrLanguagesDir, cacheFolder: ocrPackCacheDir(config.dataDir) }, app.log)
  await app.register(ocrLanguageRoutes, { catalogue: ocrCatalogue, downloadLimit: dependencies.ocrDownloadLimit })
  await app.register(billingRoutes)
  await app.register(apiKeyRoutes)
  await app.register(organizationRoutes)
  await app.register(domainRoutes)
  await app.register(ssoRoutes)
  await app.register(webhookRoutes)
  await app.register(scimTokenRoutes)
  await app.register(scimRoutes)
  await app.register(ssoSignInRoutes)
  await app.register(blogRoutes)
  await app.register(publicApiRoutes, {
    visionModel: dependencies.visionModel,
    localVision: { catalogue: ocrCatalogue, pool: { threads: config.visionThreads, ...dependencies.visionPool } }
  })
  await app.register(adminRoutes)
  await app.register(auditRoutes)
  await app.register(adminAnalyticsRoutes)
  await app.register(adminBillingRoutes)
  await app.register(adminUserRoutes)
  await app.register(webRoutes, { webRoot: config.webRoot })

  if (config.admin) {
    const admin = config.admin
    app.addHook("onReady", async () => ensureAdminAccount(app, admin))
  }

  return app
}
