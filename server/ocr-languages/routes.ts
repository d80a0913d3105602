import fs, { type FileHandle } from "node:fs/promises"

import type { FastifyBaseLogger, FastifyInstance } from "fastify"
import * as z from "zod"

import { ok } from "~core/api-answer"
import { ocrLanguageCodeSchema, ocrLanguageListSchema, type OcrLanguageList } from "~core/ocr/ocr-languages"

import { ApiError, notFound } from "../http/errors"
import { perIpRateLimit, type PerIpLimit } from "../http/rate-limit"
import { documented, parseRequest } from "../openapi/route-docs"
import { publicPack, type CataloguedPack, type OcrLanguageCatalogue } from "./catalogue"

/** A pack never changes under the same hash, so browsers and proxies may keep it for 30 days. */
const PACK_CACHE_CONTROL = "public, max-age=2592000"

/** Per IP: far more than one person installing every language, few enough that nobody mirrors us over and over. */
export const DEFAULT_OCR_DOWNLOAD_LIMIT: PerIpLimit = {
  max: 300,
  timeWindow: 60 * 60_000,
  message: "Too many language pack downloads from this address. Please try again later."
}

export interface OcrLanguageRoutesOptions {
  /** The packs offered: the public API reads with the same ones. */
  catalogue: OcrLanguageCatalogue
  /** Tests lower it; DEFAULT_OCR_DOWNLOAD_LIMIT otherwise. */
  downloadLimit?: PerIpLimit
}

const packParamsSchema = z.object({ code: ocrLanguageCodeSchema })

const listDoc = documented({
  tag: "OCR languages",
  summary: "The language packs this server offers",
  description: "Each pack's size and SHA-256, which the download must match; the script-detection and vertical-text packs when the server has them.",
  data: { 200: ocrLanguageListSchema }
})

const packDoc = documented({
  tag: "OCR languages",
  summary: "Download a language pack",
  description: "tesseract's .traineddata, gzip-compressed; its ETag is the SHA-256 of the list, and it never changes under that tag. HEAD answers the headers only.",
  params: packParamsSchema,
  answers: {
    200: { description: "The pack (application/gzip).", content: { "application/gzip": { schema: z.file().mime("application/gzip") } } },
    304: z.null().describe("Not modified: If-None-Match holds the pack's ETag.")
  },
  errors: { 404: "NOT_FOUND: this server has no such pack.", 503: "SERVICE_UNAVAILABLE: the pack cannot be read on the server now." }
})

/** If-None-Match holds this entity tag (or "*"); weak tags count too, as for any GET. */
function matchesEntityTag(ifNoneMatch: string | undefined, entityTag: string): boolean {
  if (!ifNoneMatch) return false
  return ifNoneMatch.split(",").some((candidate) => {
    const tag = candidate.trim()
    return tag === "*" || tag.replace(/^W\//, "") === entityTag
  })
}

const packUnreadable = () => new ApiError(503, "SERVICE_UNAVAILABLE", "This language pack cannot be read on the server right now. Please try again later.")

/** The pack's file, open, as it was when hashed; 503 otherwise (the operator's problem, not the caller's). */
async function openPack(pack: CataloguedPack, log: FastifyBaseLogger): Promise<FileHandle> {
  let handle: FileHandle | undefined
  try {
    handle = await fs.open(pack.file)
    const { size } = await handle.stat()
    if (size === pack.size) return handle
    // The list promised other bytes: a client would refuse these, so none are sent until a restart hashes them again.
    log.warn({ file: pack.file, hashedSize: pack.size, size }, "OCR language pack changed on disk since it was hashed")
  } catch (error) {
    log.warn({ err: error, file: pack.file }, "OCR language pack cannot be read")
  }
  await handle?.close()
  throw packUnreadable()
}

export async function ocrLanguageRoutes(app: FastifyInstance, { catalogue, downloadLimit = DEFAULT_OCR_DOWNLOAD_LIMIT }: OcrLanguageRoutesOptions) {
  // An operator's folder may hold hundreds of MB to compress: begun at start, in the background, so that the first
  // list asked for (the extension gives up after 8 s) finds it built or under way rather than starting it.
  if (catalogue.hasOperatorFolder) {
    app.addHook("onReady", async () => {
      const started = performance.now()
      catalogue.load().then(
        ({ byCode }) => app.log.info({ packs: byCode.size, ms: Math.round(performance.now() - started) }, "OCR language list ready"),
        (error: unknown) => app.log.error({ err: error }, "OCR language list could not be built: the next request tries again")
      )
    })
  }

  app.get("/api/ocr/languages", { schema: listDoc }, async () => {
    const { languages, scriptDetection, verticalText } = await catalogue.load()
    const list: OcrLanguageList = {
      languages: languages.map(publicPack),
      scriptDetection: scriptDetection ? publicPack(scriptDetection) : null,
      verticalText: verticalText.map(publicPack)
    }
    return ok(list)
  })

  // GET and HEAD as one route: one download counter per address, and a HEAD that reads no pack.
  app.route({
    method: ["GET", "HEAD"],
    url: "/api/ocr/languages/:code",
    config: perIpRateLimit(downloadLimit),
    schema: packDoc,
    handler: async (request, reply) => {
      const { code } = parseRequest(request, "params", packParamsSchema)
      const pack = (await catalogue.load()).byCode.get(code)
      if (!pack) throw notFound(`This server has no OCR language pack "${code}".`)

      const entityTag = `"${pack.sha256}"`
      const cacheHeaders = { "cache-control": PACK_CACHE_CONTROL, etag: entityTag }
      if (matchesEntityTag(request.headers["if-none-match"], entityTag)) return reply.status(304).headers(cacheHeaders).send()

      const handle = await openPack(pack, request.log)
      reply.headers({ ...cacheHeaders, "content-type": "application/gzip", "content-length": String(pack.size) })
      if (request.method === "HEAD") {
        await handle.close()
        return reply.send()
      }
      return reply.send(handle.createReadStream())
    }
  })
}
