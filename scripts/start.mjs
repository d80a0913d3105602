// `npm start`: reads `.env` when there is one, builds the web site and the server's bundle when either is missing or
// older than its sources, then serves the site and /api in this process (so SIGTERM reaches the server directly).
import fs from "node:fs"

import { buildServer, SERVER_BUNDLE, serverBuildIsCurrent } from "./server-build.mjs"
import { buildWeb, webBuildIsCurrent } from "./web-build.mjs"

// A `.env` in the working directory (copied from .env.example) fills in what the environment leaves unset: a
// variable set in the environment wins (Node's own loader, no dotenv).
if (fs.existsSync(".env")) process.loadEnvFile(".env")

if (!process.env.WEB_ROOT && !webBuildIsCurrent()) {
  console.log("Building the web site (dist/web)…")
  try {
    buildWeb()
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
}

if (!serverBuildIsCurrent()) {
  console.log("Building the server (dist/server)…")
  try {
    await buildServer()
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
}

// Stack traces in the logs name the TypeScript files and lines rather than the bundle's.
process.setSourceMapsEnabled(true)
await import(SERVER_BUNDLE)
