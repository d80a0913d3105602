/**
 * A stand-in for the browser's built-in AI (Chrome's LanguageModel, Translator and LanguageDetector), following their
 * documented interfaces: the four availability states, `downloadprogress` events on `create()` while a model
 * downloads, `prompt` and `promptStreaming` with an AbortSignal, `destroy`, `translate`, `detect`, and the
 * DOMExceptions the browser throws. Self-contained, so that end-to-end tests can give it to a page before its code
 * runs (`page.evaluateOnNewDocument(installBuiltInAiStandIn, config)`) and unit tests can call it directly.
 * What it was asked is kept in `globalThis.__builtInAi`, where a test can also change its states.
 */
export interface BuiltInAiStandInConfig {
  questions: Availability
  translation: Availability
  detector?: Availability
  /** The answer streamed to every question, word by word; by default it names the question. */
  answer?: string
  /** Between two pieces of a streamed answer. */
  pieceDelayMs?: number
  /** A download's `downloadprogress` events, this far apart. */
  downloadSteps?: number
  downloadStepMs?: number
  /** The language the detector finds. */
  detected?: string
  /** A DOMException's name the stream fails with after its second piece (the model crashed: "UnknownError"). */
  failWith?: string | null
}

export interface BuiltInAiRecord {
  config: BuiltInAiStandInConfig
  prompts: { question: string; hasImage: boolean }[]
  created: { initialPrompts: number; outputLanguages: string[] }[]
  destroyed: number
  translations: { sourceLanguage: string; targetLanguage: string; text: string }[]
  set(change: Partial<BuiltInAiStandInConfig>): void
}

export function installBuiltInAiStandIn(initial: BuiltInAiStandInConfig): void {
  type Monitor = EventTarget
  const record = {
    config: { pieceDelayMs: 20, downloadSteps: 4, downloadStepMs: 150, detector: "available", ...initial },
    prompts: [] as { question: string; hasImage: boolean }[],
    created: [] as { initialPrompts: number; outputLanguages: string[] }[],
    destroyed: 0,
    translations: [] as { sourceLanguage: string; targetLanguage: string; text: string }[],
    set(change: Record<string, unknown>) {
      Object.assign(record.config, change)
    }
  }
  ;(globalThis as Record<string, unknown>).__builtInAi = record
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const config = () => record.config as Required<BuiltInAiStandInConfig>

  /** `create()` as the browser does it: refused when unavailable, downloading first when downloadable. */
  async function whenCreated(key: "questions" | "translation" | "detector", monitor?: (monitor: Monitor) => void, signal?: AbortSignal): Promise<void> {
    const target = new EventTarget()
    monitor?.(target)
    const state = config()[key]
    if (state === "unavailable") throw new DOMException("The model is not available on this device.", "NotSupportedError")
    if (state === "downloadable" || state === "downloading") {
      record.set({ [key]: "downloading" })
      for (let step = 0; step <= config().downloadSteps; step++) {
        if (signal?.aborted) throw new DOMException("The download was aborted.", "AbortError")
        target.dispatchEvent(new ProgressEvent("downloadprogress", { loaded: step / config().downloadSteps, total: 1 }))
        if (step < config().downloadSteps) await sleep(config().downloadStepMs)
      }
      record.set({ [key]: "available" })
    }
  }

  type Content = { type: string; value: unknown }
  type Message = { role: string; content: string | Content[] }
  const questionOf = (input: string | Message[]) => {
    if (typeof input === "string") return { question: input, hasImage: false }
    const content = input.flatMap((message) => (typeof message.content === "string" ? [{ type: "text", value: message.content }] : message.content))
    return {
      question: content.filter((item) => item.type === "text").map((item) => String(item.value)).join(" "),
      hasImage: content.some((item) => item.type === "image" && (item.value instanceof Blob || (typeof ImageBitmap !== "undefined" && item.value instanceof ImageBitmap)))
    }
  }

  class LanguageModelStandIn extends EventTarget {
    contextWindow = 4096
    contextUsage = 0
    static async availability() {
      return config().questions
    }
    static async create(options: { monitor?: (monitor: Monitor) => void; signal?: AbortSignal; initialPrompts?: unknown[]; expectedOutputs?: { languages?: string[] }[] } = {}) {
      await whenCreated("questions", options.monitor, options.signal)
      record.created.push({ initialPrompts: options.initialPrompts?.length ?? 0, outputLanguages: options.expectedOutputs?.flatMap((output) => output.languages ?? []) ?? [] })
      return new LanguageModelStandIn()
    }
    destroyed = false
    destroy() {
      if (!this.destroyed) record.destroyed++
      this.destroyed = true
    }
    async prompt(input: string | Message[], options: { signal?: AbortSignal } = {}) {
      let answer = ""
      const reader = this.promptStreaming(input, options).getReader()
      for (let piece = await reader.read(); !piece.done; piece = await reader.read()) answer += piece.value
      return answer
    }
    promptStreaming(input: string | Message[], { signal }: { signal?: AbortSignal } = {}) {
      if (this.destroyed) throw new DOMException("The session was destroyed.", "InvalidStateError")
      const asked = questionOf(input)
      record.prompts.push(asked)
      const pieces = (config().answer ?? `On-device answer to: ${asked.question}`).split(/(?<= )/)
      let sent = 0
      return new ReadableStream<string>({
        async pull(controller) {
          await sleep(config().pieceDelayMs)
          if (signal?.aborted) return controller.error(new DOMException("The prompt was aborted.", "AbortError"))
          if (config().failWith && sent === 2) return controller.error(new DOMException("The model stopped.", config().failWith!))
          if (sent === pieces.length) return controller.close()
          controller.enqueue(pieces[sent++]!)
        }
      })
    }
  }

  class TranslatorStandIn {
    constructor(
      readonly sourceLanguage: string,
      readonly targetLanguage: string
    ) {}
    static async availability() {
      return config().translation
    }
    static async create({ sourceLanguage, targetLanguage, monitor, signal }: { sourceLanguage: string; targetLanguage: string; monitor?: (monitor: Monitor) => void; signal?: AbortSignal }) {
      await whenCreated("translation", monitor, signal)
      return new TranslatorStandIn(sourceLanguage, targetLanguage)
    }
    async translate(text: string) {
      record.translations.push({ sourceLanguage: this.sourceLanguage, targetLanguage: this.targetLanguage, text })
      return `[${this.targetLanguage}] ${text}`
    }
    destroy() {}
  }

  class LanguageDetectorStandIn {
    static async availability() {
      return config().detector
    }
    static async create({ monitor, signal }: { monitor?: (monitor: Monitor) => void; signal?: AbortSignal } = {}) {
      await whenCreated("detector", monitor, signal)
      return new LanguageDetectorStandIn()
    }
    async detect() {
      return [{ detectedLanguage: config().detected ?? "en", confidence: 0.92 }]
    }
    destroy() {}
  }

  Object.assign(globalThis, { LanguageModel: LanguageModelStandIn, Translator: TranslatorStandIn, LanguageDetector: LanguageDetectorStandIn })
}

/** The stand-in's record in this realm (unit tests). */
export const builtInAiRecord = (): BuiltInAiRecord => (globalThis as unknown as { __builtInAi: BuiltInAiRecord }).__builtInAi

/** Takes the stand-in away (a browser without built-in AI). */
export function removeBuiltInAi(): void {
  for (const name of ["LanguageModel", "Translator", "LanguageDetector", "__builtInAi"]) delete (globalThis as Record<string, unknown>)[name]
}
