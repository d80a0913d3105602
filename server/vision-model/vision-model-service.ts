/**
 * Questions about an image and translations of text, both to the configured vision model and counted alike in the
 * plan's monthly quota, for whoever calls: the extension and the site (/api/analyze/*, a session's user) and the public
 * API (/api/v1/ask and /translate, an API key's owner). The routes parse and authorise; this orchestrates downloads,
 * slots, the quota and the model (./model-calls.ts).
 */
import type { FastifyBaseLogger, FastifyInstance } from "fastify"
import type * as z from "zod"

import type { TranslateAnswer, TranslateImagesAnswer, translateImagesRequestSchema, translateRequestSchema } from "~core/analysis/translate"
import { MAX_IMAGE_BYTES, VQA_MODELS, type VqaAnswer, type vqaAskRequestSchema, type VqaUsage, type VqaUsageReport } from "~core/analysis/vqa"

import type { UserRow } from "../auth/user-store"
import { planOf } from "../billing/plan"
import { ApiError } from "../http/errors"
import { imageFromDataUrl, toImageDataUrl } from "../image-input/image-checks"
import { imageDownloader, type ImageDownloadOptions } from "../image-input/image-download"
import { quotaExhausted, quotaSourceOf, refuseWithoutRequiredFactor, releaseTo, reserveFrom, usageSummary, usedOf, type CountedRequest, type QuotaSource } from "../quota/quota-service"
import { askVisionModel, ProviderFailure, translateWithModel } from "./model-calls"

export const MAX_MODEL_CALLS_IN_FLIGHT = 3

/** What a caller refused for having that many running is told to wait: one of them is usually done by then. */
export const MODEL_CALLS_RETRY_AFTER_SECONDS = 2

export const DEFAULT_PROVIDER_TIMEOUT_MS = 30_000

/** What the vision model's calls are given; the image download's options too, for the image URLs of questions. */
export interface VisionModelOptions extends ImageDownloadOptions {
  /** How long the vision model may take to answer; 30 s by default. */
  providerTimeoutMs?: number
  /** Tests only: model calls one account may have running at once; MAX_MODEL_CALLS_IN_FLIGHT by default. */
  maxModelCallsInFlight?: number
}

/** The models a caller may choose: the fixed list and the server's configured VQA_MODEL. */
export function allowedModels(configured: string): string[] {
  return [...new Set<string>([configured, ...VQA_MODELS])]
}

export function visionModelService(app: FastifyInstance, options: VisionModelOptions = {}) {
  const providerTimeoutMs = options.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS
  const maxCallsInFlight = options.maxModelCallsInFlight ?? MAX_MODEL_CALLS_IN_FLIGHT
  // A slot is held for at most this long, so the slots of a process that died free themselves.
  const callSlotWindowMs = 2 * providerTimeoutMs

  const downloadImageBytes = imageDownloader(app, options)

  /**
   * Runs a call to the model within one of the account's MAX_MODEL_CALLS_IN_FLIGHT slots (shared by every instance)
   * and `wanted` requests of its monthly quota (one per image of a batch), taken one by one before the call so
   * parallel requests cannot pass either limit together. As many as the quota has room for are taken, in order:
   * `call` is told how many, and `refused` is the quota's refusal of the next one; none at all is QUOTA_EXCEEDED. The
   * requests are given back only when the provider bills nothing for the call (it was never sent, or the provider
   * refused it); a call it answered, however badly, counts.
   */
  const withReservedRequests = async <T>(
    user: UserRow,
    log: FastifyBaseLogger,
    kind: CountedRequest,
    wanted: number,
    call: (reserved: number) => Promise<T>,
    knownSource?: QuotaSource
  ): Promise<{ result: T; usage: VqaUsage; refused: ApiError | null }> => {
    const db = app.database.db
    const slotKey = `model-calls:${user.id}`
    const slot = await app.limits.take(slotKey, maxCallsInFlight, callSlotWindowMs, app.clock())
    if (!slot.taken) {
      throw new ApiError(429, "RATE_LIMIT_EXCEEDED", `You have ${maxCallsInFlight} AI requests running already. Please wait for one of them to finish.`, {
        retryAfter: MODEL_CALLS_RETRY_AFTER_SECONDS
      })
    }
    try {
      // The member's organisation's pool, or the caller's own plan: read on each request, so a removal counts at once.
      const source = knownSource ?? (await quotaSourceOf(db, user))
      const now = app.clock()
      const reservations: Awaited<ReturnType<typeof reserveFrom>>[] = []
      const giveBack = async () => {
        for (const reservation of reservations) await releaseTo(db, user.id, source, reservation, kind)
      }
      let refused: ApiError | null = null
      try {
        while (reservations.length < wanted && refused === null) {
          try {
            reservations.push(await reserveFrom(db, user.id, source, now, kind, app))
          } catch (error) {
            if (!(error instanceof ApiError && error.code === "QUOTA_EXCEEDED") || reservations.length === 0) throw error
            refused = error
          }
        }
      } catch (error) {
        // A database failure part-way: what was taken for this call is not used.
        await giveBack()
        throw error
      }
      try {
        // The last request taken holds the source's count with all of this call's.
        return { result: await call(reservations.length), usage: usageSummary(reservations.at(-1)!.used, source.limit, now), refused }
      } catch (error) {
        if (error instanceof ProviderFailure && !error.billed) await giveBack()
        if (!(error instanceof ApiError)) log.error({ err: error }, "model call failed")
        throw error
      }
    } finally {
      await app.limits.release(slotKey)
    }
  }

  /** One request of the quota for one call to the model: see withReservedRequests. */
  const withReservedRequest = async <T>(user: UserRow, log: FastifyBaseLogger, kind: CountedRequest, call: () => Promise<T>, knownSource?: QuotaSource) => {
    const { result, usage } = await withReservedRequests(user, log, kind, 1, call, knownSource)
    return { result, usage }
  }

  const providerSettings = () => {
    const { apiKey, baseUrl } = app.config.openai
    if (!apiKey) throw new ApiError(503, "VQA_NOT_CONFIGURED", "The vision model is not configured on this server.")
    return { apiKey, baseUrl, timeoutMs: providerTimeoutMs }
  }

  return {
    /** The month's use and limit of the caller's plan. */
    async usage(user: UserRow): Promise<VqaUsageReport> {
      const now = app.clock()
      const source = await quotaSourceOf(app.database.db, user)
      const used = await usedOf(app.database.db, user.id, source, now)
      const pool = source.kind === "pool" ? { organizationId: source.organizationId, name: source.name, limit: source.limit, used } : null
      return { ...usageSummary(used, source.limit, now), plan: planOf(user), pool }
    },

    async ask(user: UserRow, log: FastifyBaseLogger, input: z.infer<typeof vqaAskRequestSchema>): Promise<VqaAnswer> {
      const settings = providerSettings()
      const defaultModel = app.config.openai.model
      const model = input.model ?? defaultModel
      const models = allowedModels(defaultModel)
      if (!models.includes(model)) {
        throw new ApiError(400, "MODEL_NOT_ALLOWED", `The model ${JSON.stringify(model)} is not available. Choose one of: ${models.join(", ")}.`)
      }
      // Refuse early, before downloading anything, when the organisation's rule turns the member away or the month's
      // quota is already spent (reserveFrom checks both again when it counts).
      const source = await quotaSourceOf(app.database.db, user)
      await refuseWithoutRequiredFactor(app.database.db, user.id, source)
      if (source.limit !== null && (await usedOf(app.database.db, user.id, source, app.clock())) >= source.limit) throw quotaExhausted(source, app.clock())
      const imageDataUrl =
        "dataUrl" in input.image ? imageFromDataUrl(input.image.dataUrl) : toImageDataUrl(await downloadImageBytes(user.id, input.image.url, MAX_IMAGE_BYTES))
      const { result: answer, usage } = await withReservedRequest(
        user,
        log,
        "questions",
        () => askVisionModel(settings, { model, question: input.question, imageDataUrl, history: input.history }),
        // Read once above, before the download: the same request's quota.
        source
      )
      return { answer, model, usage }
    },

    async translate(user: UserRow, log: FastifyBaseLogger, input: z.infer<typeof translateRequestSchema>): Promise<TranslateAnswer> {
      const settings = providerSettings()
      const { targetLanguage, sourceLanguage } = input
      const languages = { model: app.config.openai.model, targetLanguageName: targetLanguage.name, sourceLanguageName: sourceLanguage?.name ?? null }
      // The schema lets exactly one of text and lines through.
      const { result: translated, usage } = await withReservedRequest(user, log, "translations", () =>
        translateWithModel(settings, input.lines ? { ...languages, lines: input.lines } : { ...languages, text: input.text! })
      )
      return { ...translated, targetLanguage: targetLanguage.code, sourceLanguage: sourceLanguage?.code ?? null, usage }
    },

    /**
     * Several images' lines in one call to the model, each image counted as one request: the images the quota has
     * room for, in the order sent; the others come back null with the quota's refusal.
     */
    async translateImages(user: UserRow, log: FastifyBaseLogger, input: z.infer<typeof translateImagesRequestSchema>): Promise<TranslateImagesAnswer> {
      const settings = providerSettings()
      const { images, targetLanguage, sourceLanguage } = input
      const languages = { model: app.config.openai.model, targetLanguageName: targetLanguage.name, sourceLanguageName: sourceLanguage?.name ?? null }
      const { result: translated, usage, refused } = await withReservedRequests(user, log, "translations", images.length, async (reserved) => {
        const linesPerImage = images.slice(0, reserved).map((image) => image.lines.length)
        const { lines } = await translateWithModel(settings, { ...languages, lines: images.slice(0, reserved).flatMap((image) => image.lines), linesPerImage })
        // The model answers exactly as many lines as it was sent (else a provider failure): each image takes its own.
        let start = 0
        return linesPerImage.map((count) => ({ lines: lines.slice(start, (start += count)) }))
      })
      return {
        images: images.map((_image, index) => translated[index] ?? null),
        targetLanguage: targetLanguage.code,
        sourceLanguage: sourceLanguage?.code ?? null,
        usage,
        ...(refused ? { quotaExceeded: { message: refused.message, retryAfter: refused.extra.retryAfter ?? 1 } } : {})
      }
    }
  }
}
