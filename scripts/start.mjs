// `npm start`: reads `.env` when there is one, builds the web site when its build is missing or older than its
// sources, then serves the site and /api in this process (so SIGTERM reaches the server directly).
import fs from "node:fs"
import path from "node:path"

import { buildWeb, projectRoot, webBuildIsCurrent } from "./web-build.mjs"

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

const { register } = await import("tsx/esm/api")
// The server imports shared code as ~core/…, a path alias of tsconfig.json. tsx looks for that file in the
// working directory unless told, so it is named here: the server then starts from any directory.
register({ tsconfig: path.join(projectRoot, "tsconfig.json") })
await import(path.join(projectRoot, "server/main.ts"))
