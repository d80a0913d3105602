import fs from "node:fs"
import path from "node:path"

import fastifyStatic from "@fastify/static"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"

import { fail } from "~core/api-answer"

/** Hashed build output may be cached for good; everything else is revalidated. */
const IMMUTABLE_PREFIX = "/assets/"

export function isApiPath(url: string): boolean {
  return url === "/api" || url.startsWith("/api/") || url.startsWith("/api?")
}

/**
 * Serves the static web build with SPA fallback: a non-API GET that matches no file gets index.html,
 * so browser routing works on reload; a missing hashed asset stays a 404 so a stale page does not
 * receive HTML where it expects JavaScript.
 */
export async function webRoutes(app: FastifyInstance, { webRoot }: { webRoot: string }) {
  const indexFile = path.join(webRoot, "index.html")
  const hasBuild = () => fs.existsSync(indexFile)

  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: true,
    index: ["index.html"],
    cacheControl: false,
    setHeaders(reply, filePath) {
      const isIndex = path.basename(filePath) === "index.html"
      const relative = "/" + path.relative(webRoot, filePath).split(path.sep).join("/")
      reply.header(
        "cache-control",
        !isIndex && relative.startsWith(IMMUTABLE_PREFIX)
          ? "public, max-age=31536000, immutable"
          : "no-cache"
      )
    }
  })

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split("?")[0] ?? "/"
    const wantsPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !isApiPath(request.url) &&
      !pathname.startsWith(IMMUTABLE_PREFIX)
    if (!wantsPage) {
      return reply
        .status(404)
        .send(fail("NOT_FOUND", `No ${isApiPath(request.url) ? "API endpoint" : "file"} at ${request.method} ${pathname}.`))
    }
    if (!hasBuild()) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The Image Query AI site has not been built yet: run `npm run build:web` (npm start does it for you).")
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html")
  })
}
