import { buildApp } from "./app"
import { ConfigError, loadConfig } from "./config"

const SHUTDOWN_GRACE_MS = 10_000

async function main() {
  const config = loadConfig()
  const app = await buildApp(config)

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, "shutting down")
    const force = setTimeout(() => {
      app.log.error("shutdown took too long; exiting")
      process.exit(1)
    }, SHUTDOWN_GRACE_MS)
    force.unref()
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, "shutdown failed")
        process.exit(1)
      }
    )
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"))
  process.on("SIGINT", () => shutdown("SIGINT"))

  await app.listen({ host: config.host, port: config.port })
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host
  console.log(
    `Image Query AI is serving the site and /api on http://${shownHost}:${config.port}; open ${config.publicUrl} ` +
      `(data in ${config.dataDir}, ${app.database.kind === "postgres" ? "PostgreSQL" : "embedded database"}, mail to ${app.mailer.description})`
  )
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message)
  } else if ((error as NodeJS.ErrnoException)?.code === "EADDRINUSE") {
    console.error(`Cannot start: the port is already in use (${(error as Error).message}). Set PORT to a free port.`)
  } else {
    console.error("Cannot start Image Query AI:", error instanceof Error ? error.message : error)
  }
  process.exit(1)
})
