import helmet from "@fastify/helmet"
import Fastify, { type FastifyInstance } from "fastify"

import type { AppConfig } from "./config"
import { embeddedDatabaseDir, openDatabase, type Database } from "./db/database"
import { registerErrorHandling } from "./http/errors"
import { loadOrCreateSecret } from "./secrets"
import { statusRoutes } from "./status/routes"
import { webRoutes } from "./web/routes"

/** Wall-clock time in milliseconds; tests pass a fake one. */
export type Clock = () => number

export interface AppDependencies {
  /** An already open database (tests share one); otherwise opened from the config and closed with the app. */
  database?: Database
  clock?: Clock
}

declare module "fastify" {
  interface FastifyInstance {
    config: AppConfig
    database: Database
    tokenSecret: string
    clock: Clock
  }
}

/** The content security policy the site runs under: nothing but our own origin. */
export function contentSecurityPolicy(config: AppConfig) {
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
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
    logger: { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024
  })

  const ownsDatabase = !dependencies.database
  const database =
    dependencies.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      embeddedDir: config.databaseUrl ? undefined : embeddedDatabaseDir(config.dataDir)
    }))
  if (ownsDatabase) app.addHook("onClose", async () => database.close())

  app.decorate("config", config)
  app.decorate("database", database)
  app.decorate("clock", clock)
  app.decorate("tokenSecret", config.tokenSecret ?? (await loadOrCreateSecret(config.dataDir, "token-secret")))

  registerErrorHandling(app)
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    strictTransportSecurity: config.publicUrl.startsWith("https:"),
    crossOriginEmbedderPolicy: false
  })

  await app.register(statusRoutes, { database, startedAt, now: clock })
  await app.register(webRoutes, { webRoot: config.webRoot })

  return app
}
