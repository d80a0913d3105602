/**
 * Translate images on this page, for one tab: the mode's state (on or off, the translations or the originals shown,
 * what the badge says) and its loop. Each image the panel lists by default is looked up first among the translations
 * made before (this panel's, the device's: no request), else read on this computer, two at once, nearest the view
 * first, while the page is left alone (Find in images' reading loop, read-loop.ts); its lines then wait for the next
 * request, which takes as many read images as fit (batches.ts), one request out at a time. Showing the
 * originals and back reads and sends nothing again. Everything outside (reading, the server, the page) comes in as
 * `TabTranslationParts`, so the loop is tested alone.
 */
import { MAX_TRANSLATE_BATCH_LINES } from "~core/analysis/translate"
import type { PageImageTranslation, PageTranslationStatus } from "~extension/messaging/page-translation-messages"

import { readLoop, type ReadLoopParts, type ReadTarget } from "../find/read-loop"
import { takeBatch, type SentOutcome, type Taken } from "./batches"
import { translationOf, type ImageText } from "./image-lines"

/** Images read at once: the page stays responsive and the panel's engines are shared with its other work. */
export const READ_AT_ONCE = 2

/**
 * After the first request of a run (sent at once: the first translation on screen does not wait), a read image waits
 * at most this long for the image being read beside it, so that both go in one request. About one image's OCR.
 */
export const GATHER_MS = 1500

export interface TabTranslationParts extends Pick<ReadLoopParts<ImageText | null>, "distances" | "whenShown" | "pageQuiet" | "idle" | "orderRefreshMs" | "now"> {
  /** The images to translate now: those the panel lists by default on the tab's page (they change as it changes). */
  targets(): readonly ReadTarget[]
  /** A translation made before (in this panel, or kept on the device); null when there is none. */
  kept(url: string): Promise<PageImageTranslation | null>
  /** Reads the image's text on this computer; null when it has no line with letters. */
  read(target: ReadTarget): Promise<ImageText | null>
  /** One request for the images taken; rejects with the client's VqaRequestError. */
  send(taken: Taken<{ lines: readonly string[] }>): Promise<SentOutcome>
  /** A new translation, to keep (for the panel's life and on the device). */
  keep(url: string, translation: PageImageTranslation): void
  /** Injects the page translation script into the tab's frames (and the page index); resolves once it is there. */
  prepare(): Promise<void>
  show(target: ReadTarget, translation: PageImageTranslation): void
  /** The mode's state, for every frame (the badge); the loop sends it only when it changed. */
  state(state: PageState): void
  clear(): void
  /** GATHER_MS unless given. */
  gatherMs?: number
  /** The words of a refusal the service gave, and where to upgrade when the quota is spent. */
  signedOutMessage: string
  upgradeUrl(): string | undefined
}

export interface PageState {
  showing: boolean
  status: PageTranslationStatus
  done: number
  total: number
  message?: string
  upgradeUrl?: string
}

export interface TabTranslationView extends PageState {
  on: boolean
}

type ImageStatus = "checking" | "unread" | "reading" | "queued" | "sending" | "translated" | "no-text" | "failed"
const HALTED: ReadonlySet<PageTranslationStatus> = new Set(["stopped", "quota", "error"])

export const NOT_SCRIPTABLE_MESSAGE = "The images of this page cannot be translated: the browser keeps extensions out of it."

export const OFF_VIEW: TabTranslationView = { on: false, showing: true, status: "done", done: 0, total: 0 }

export class TabTranslation {
  private view: TabTranslationView = OFF_VIEW
  private active = false
  private prepared = false
  private readonly images = new Map<string, ImageStatus>()
  private readonly translations = new Map<string, PageImageTranslation>()
  private readonly shown = new Set<string>()
  private queue: ImageText[] = []
  private sending = false
  /** A request went out in this run: the next ones gather what is read beside each other. */
  private sentOnce = false
  /** When the oldest image of the queue was queued. */
  private queuedSince = 0
  private gathering: ReturnType<typeof setTimeout> | null = null
  private pass: AbortController | null = null
  /** Turning off starts over: what arrives afterwards for an earlier run is kept, not shown. */
  private epoch = 0
  private lastState = ""
  private readonly listeners = new Set<() => void>()

  constructor(private readonly parts: TabTranslationParts) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  snapshot = (): TabTranslationView => this.view

  /** The command (the Images section's button, the popup, the page's menu, the keyboard): on, then originals and back. */
  toggle(): void {
    if (!this.view.on) this.turnOn()
    else this.setShowing(!this.view.showing)
  }

  turnOn(): void {
    if (this.view.on) return
    this.update({ on: true, showing: true, status: "translating", message: undefined, upgradeUrl: undefined })
    this.prepare()
  }

  turnOff(): void {
    if (!this.view.on) return
    this.epoch++
    this.halt()
    this.images.clear()
    this.translations.clear()
    this.shown.clear()
    this.queue = []
    this.sending = false
    this.sentOnce = false
    this.stopGathering()
    this.prepared = false
    this.lastState = ""
    this.update(OFF_VIEW)
    this.parts.clear()
  }

  /** The badge's Show originals / Show translations: nothing is read or sent again. */
  setShowing(showing: boolean): void {
    if (!this.view.on || this.view.showing === showing) return
    this.update({ showing })
    if (showing) this.showAll()
    else this.halt()
  }

  /** Stop: nothing more is read or sent; what is shown stays. */
  stop(): void {
    if (!this.view.on || HALTED.has(this.view.status)) return
    this.update({ status: "stopped" })
    this.halt()
  }

  /** Continue after Stop, or try again after a refusal. */
  resume(): void {
    if (!this.view.on || !HALTED.has(this.view.status)) return
    this.update({ status: "translating", message: undefined, upgradeUrl: undefined })
  }

  /** Whether the panel shows this tab: reading waits while it does not. */
  setActive(active: boolean): void {
    if (this.active === active) return
    this.active = active
    if (!active) this.halt()
    this.kick()
  }

  /** The page's images changed (a scan): new ones are translated, translated ones not shown yet are shown. */
  refresh(): void {
    this.showAll()
    this.kick()
  }

  /** The tab holds a new document (a reload): its frames get the script again and the translations made are shown again. */
  pageChanged(): void {
    this.shown.clear()
    this.prepared = false
    this.lastState = ""
    if (this.view.on) this.prepare()
  }

  dispose(): void {
    this.epoch++
    this.halt()
    this.stopGathering()
    this.listeners.clear()
  }

  /** The page translation script into the tab's frames, then the state and every translation made, to it. */
  private prepare(): void {
    const epoch = this.epoch
    this.parts.prepare().then(
      () => {
        if (epoch !== this.epoch) return
        this.prepared = true
        this.sendState(true)
        this.showAll()
        // The new document's images may have been listed before it was ready (a page of the same site): read them.
        this.kick()
      },
      () => {
        if (epoch === this.epoch) this.refuse("error", NOT_SCRIPTABLE_MESSAGE)
      }
    )
  }

  private get running(): boolean {
    return this.active && this.view.on && this.view.showing && !HALTED.has(this.view.status)
  }

  private update(next: Partial<TabTranslationView>): void {
    const merged = { ...this.view, ...next }
    const counted = merged.on ? this.counts() : { done: 0, total: 0, pending: false }
    const status = merged.on && !HALTED.has(merged.status) ? (counted.pending ? "translating" : "done") : merged.status
    this.view = { ...merged, status, done: counted.done, total: counted.total }
    this.sendState()
    for (const listener of this.listeners) listener()
    if (next.status === "translating" || next.showing || next.on) this.kick()
  }

  private counts(): { done: number; total: number; pending: boolean } {
    let done = 0
    let total = 0
    let pending = false
    for (const target of this.parts.targets()) {
      const status = this.images.get(target.url) ?? "checking"
      if (status === "no-text" || status === "failed") continue
      total++
      if (status === "translated") done++
      else pending = true
    }
    return { done, total, pending }
  }

  private sendState(force = false): void {
    if (!this.view.on || !this.prepared) return
    const { showing, status, done, total, message, upgradeUrl } = this.view
    const state: PageState = { showing, status, done, total, ...(message === undefined ? {} : { message }), ...(upgradeUrl === undefined ? {} : { upgradeUrl }) }
    const key = JSON.stringify(state)
    if (!force && key === this.lastState) return
    this.lastState = key
    this.parts.state(state)
  }

  private showAll(): void {
    if (!this.view.on || !this.view.showing || !this.prepared) return
    for (const target of this.parts.targets()) {
      const translation = this.translations.get(target.url)
      if (!translation || this.shown.has(target.url)) continue
      this.shown.add(target.url)
      this.parts.show(target, translation)
    }
  }

  private halt(): void {
    this.pass?.abort()
    this.pass = null
  }

  private translated(url: string, translation: PageImageTranslation): void {
    this.images.set(url, "translated")
    this.translations.set(url, translation)
    this.showAll()
  }

  /** Looks up what is new, starts the reading and the next request, as the state allows; says the state. */
  private kick(): void {
    if (!this.running) return
    const epoch = this.epoch
    for (const target of this.parts.targets()) {
      if (this.images.has(target.url)) continue
      this.images.set(target.url, "checking")
      void this.parts.kept(target.url).then(
        (translation) => this.afterLookup(epoch, target.url, translation),
        () => this.afterLookup(epoch, target.url, null)
      )
    }
    // A new pass waits for the reads of a stopped one to end: never more than READ_AT_ONCE at once.
    const reading = [...this.images.values()].includes("reading")
    if (!this.pass && !reading && this.parts.targets().some((target) => this.images.get(target.url) === "unread")) this.startPass()
    this.pump()
    this.update({})
  }

  private afterLookup(epoch: number, url: string, translation: PageImageTranslation | null): void {
    if (epoch !== this.epoch) return
    if (translation) this.translated(url, translation)
    else this.images.set(url, "unread")
    this.kick()
  }

  private startPass(): void {
    const controller = new AbortController()
    this.pass = controller
    const epoch = this.epoch
    const { parts } = this
    const loop: ReadLoopParts<ImageText | null> = {
      targets: () => parts.targets(),
      isDone: (url) => this.images.get(url) !== "unread",
      distances: parts.distances,
      read: parts.read,
      onStart: (url) => {
        if (epoch === this.epoch) this.images.set(url, "reading")
      },
      onRead: (url, outcome) => {
        if (epoch !== this.epoch) return
        if (outcome.status === "failed") this.images.set(url, "failed")
        else if (!outcome.reading) this.images.set(url, "no-text")
        else {
          this.images.set(url, "queued")
          if (!this.queue.length) this.queuedSince = this.now()
          this.queue.push(outcome.reading)
        }
        this.kick()
        this.update({})
      },
      whenShown: parts.whenShown,
      pageQuiet: parts.pageQuiet,
      idle: parts.idle,
      orderRefreshMs: parts.orderRefreshMs,
      now: parts.now
    }
    const loops = Array.from({ length: READ_AT_ONCE }, () => readLoop(loop, controller.signal))
    void Promise.all(loops).then(() => {
      if (this.pass !== controller) return
      this.pass = null
      this.kick()
    })
  }

  private now(): number {
    return (this.parts.now ?? Date.now)()
  }

  private stopGathering(): void {
    if (this.gathering) clearTimeout(this.gathering)
    this.gathering = null
  }

  /** Sends the next request when none is out: every image read so far that fits (a moment after the first, see GATHER_MS). */
  private pump(): void {
    if (this.sending || !this.queue.length || !this.running) return
    const beingRead = [...this.images.values()].includes("reading")
    const lines = this.queue.reduce((sum, image) => sum + image.lines.length, 0)
    const wait = this.queuedSince + (this.parts.gatherMs ?? GATHER_MS) - this.now()
    if (this.sentOnce && beingRead && lines < MAX_TRANSLATE_BATCH_LINES && wait > 0) {
      this.gathering ??= setTimeout(() => {
        this.gathering = null
        this.pump()
      }, wait)
      return
    }
    this.stopGathering()
    this.sentOnce = true
    const taken = takeBatch(this.queue.map((image) => ({ image, lines: image.lines.map((line) => line.text) })))
    const images = taken.images.map(({ image }) => image)
    this.queue = this.queue.filter((image) => !images.includes(image))
    for (const image of images) this.images.set(image.url, "sending")
    this.sending = true
    const epoch = this.epoch
    void this.parts.send(taken).then(
      (outcome) => this.afterSend(epoch, images, outcome),
      (error: unknown) => this.afterSend(epoch, images, null, error)
    )
  }

  private afterSend(epoch: number, images: readonly ImageText[], outcome: SentOutcome | null, error?: unknown): void {
    // A request of an earlier run is paid for: its translations are kept for next time, though no longer shown here.
    images.forEach((image, index) => {
      const lines = outcome?.lines[index]
      if (lines) this.parts.keep(image.url, translationOf(image, lines, outcome!.targetLanguage))
    })
    if (epoch !== this.epoch) return
    this.sending = false
    const unsent: ImageText[] = []
    images.forEach((image, index) => {
      const lines = outcome?.lines[index]
      if (lines) this.translated(image.url, translationOf(image, lines, outcome!.targetLanguage))
      else {
        this.images.set(image.url, "queued")
        unsent.push(image)
      }
    })
    // Kept in front, read already: sent first when the translation goes on (Continue, next month's quota).
    if (unsent.length && !this.queue.length) this.queuedSince = this.now()
    this.queue = [...unsent, ...this.queue]
    if (outcome?.quotaMessage) this.refuse("quota", outcome.quotaMessage)
    else if (!outcome) this.refused(error)
    this.pump()
    this.update({})
  }

  private refused(error: unknown): void {
    const refusal = error as { message?: unknown; quotaExceeded?: unknown; signedOut?: unknown } | undefined
    const message = typeof refusal?.message === "string" && refusal.message ? refusal.message : "The translation failed. Try again."
    if (refusal?.quotaExceeded === true) this.refuse("quota", message)
    else this.refuse("error", refusal?.signedOut === true ? this.parts.signedOutMessage : message)
  }

  private refuse(status: "quota" | "error", message: string): void {
    this.halt()
    this.update({ status, message, upgradeUrl: status === "quota" ? this.parts.upgradeUrl() : undefined })
  }
}
