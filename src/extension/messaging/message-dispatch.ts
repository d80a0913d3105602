/**
 * One message dispatch for every context of the extension (service worker, content scripts, side panel): a
 * table from message type to route, each route with its sender rule, its check and its handler, and one
 * listener per chrome event built from it.
 *
 * A route that answers refusals (it names its `refusal`) answers a refused sender and a message its check
 * refuses with `{ success: false, error }`; a route without one stays silent, as does the table for a type it
 * does not know (unless `unrouted` names a route for it): Chrome hands each message to every listener of a
 * context, and silence leaves it to the others. A handler is called synchronously inside Chrome's listener, so
 * what needs the user's gesture (chrome.sidePanel.open) still has it; what it returns, or what its promise
 * resolves to, is the answer, and a handler that throws or rejects is answered `{ success: false, error }`.
 *
 * Raw chrome APIs remain where no wrapper can stand between the browser and us:
 * - one frame: every frame of a page runs its own content script, so the side panel asks one of them with
 *   chrome.tabs.sendMessage(tabId, message, { frameId }) (without a frame each one answers and Chrome keeps the
 *   first answer; @plasmohq/messaging's sendToContentScript takes a tab, not a frame);
 * - the user's gesture: chrome.sidePanel.open is refused once anything has been awaited since the click, so the
 *   button's message is handled synchronously in chrome.runtime.onMessage;
 * - the companion site: its pages reach us only through externally_connectable, with `{ type: "WEBSITE_…" }`
 *   messages (chrome.runtime.onMessageExternal, routed here too) and one long-lived port per open page (a web
 *   page cannot receive runtime messages), kept with its unanswered requests (background/site-link.ts).
 * @plasmohq/messaging fits none of these: its messages are `{ name, body }` (ours are `{ type }`, fixed by the
 * site and the content scripts), its generated listeners claim every message (they return true even for names
 * they do not know, so a sender of an unknown message waits for nothing), and it keeps one port per port name.
 */
import { extensionErrorAnswer, type ExtensionAnswer } from "~core/protocol"

/** What Chrome tells a listener about the sender of a message (the part the sender rules read). */
export interface MessageSender {
  id?: string
  /** The sending document: a web page for a content script, an extension URL for our own pages. */
  url?: string
  origin?: string
  tab?: { id?: number; url?: string; windowId?: number }
  /** 0 for a tab's top-level frame. */
  frameId?: number
  /** Chrome's state of the sending document: "active", "prerender", "cached" or "pending_deletion" (Firefox gives none). */
  documentLifecycle?: string
}

/** A check's refusal, in the words answered to the sender. */
export type Refusal = { ok: false; error: string }

export interface MessageRoute<Accepted extends { ok: true }, Answer> {
  /** The sender rule: who may send this message. */
  from(sender: MessageSender): boolean
  /** Answer refusals with this error for a refused sender (and the check's own error for a refused message). */
  refusal?: string
  /** Checks the message; what it accepts is what `handle` gets. */
  check(message: unknown, sender: MessageSender): Accepted | Refusal
  /** Acts on the message: its result (or its promise's) is the answer; nothing returned, nothing answered. */
  handle(accepted: Accepted, sender: MessageSender): Answer | Promise<Answer> | void
}

type AnyRoute = MessageRoute<{ ok: true }, unknown>

/** message type → route. */
export type MessageRoutes = Readonly<Record<string, AnyRoute>>

export interface DispatchOptions {
  /** The route of a message whose type (undefined when it has none) has no entry in the table; none: stay silent. */
  unrouted?: (type: unknown) => AnyRoute | undefined
}

/** A route, with the types of what it accepts and answers inferred from its own check and handler. */
export function messageRoute<Accepted extends { ok: true }, Answer>(route: MessageRoute<Accepted, Answer>): MessageRoute<Accepted, Answer> {
  return route
}

/**
 * Runs one message through a route: the answer, a promise of it, or undefined when the route answers nothing.
 * Synchronous up to and including the handler's call.
 */
export function answerMessage<Accepted extends { ok: true }, Answer>(
  route: MessageRoute<Accepted, Answer>,
  message: unknown,
  sender: MessageSender
): Answer | ExtensionAnswer | Promise<Answer | ExtensionAnswer> | undefined {
  const { refusal } = route
  if (!route.from(sender)) return refusal === undefined ? undefined : extensionErrorAnswer(refusal)
  const checked = route.check(message, sender)
  if (checked.ok === false) return refusal === undefined ? undefined : extensionErrorAnswer(checked.error)
  try {
    const answer = route.handle(checked, sender)
    return answer instanceof Promise ? answer.catch((error: unknown) => extensionErrorAnswer(error)) : (answer ?? undefined)
  } catch (error) {
    return extensionErrorAnswer(error)
  }
}

function typeOf(message: unknown): unknown {
  return typeof message === "object" && message !== null ? (message as { type?: unknown }).type : undefined
}

/** The chrome.runtime.onMessage (or onMessageExternal) listener of a route table. */
export function messageListener(routes: MessageRoutes, { unrouted }: DispatchOptions = {}) {
  return (message: unknown, sender: MessageSender, sendResponse: (answer: unknown) => void): boolean => {
    const type = typeOf(message)
    const route = typeof type === "string" && Object.hasOwn(routes, type) ? routes[type] : unrouted?.(type)
    const answer = route && answerMessage(route, message, sender)
    if (answer === undefined) return false
    // Every answer goes out the same way, now or once the handler's promise settles; true tells Chrome one is coming.
    void Promise.resolve(answer).then(sendResponse)
    return true
  }
}

type MessageEvent = Pick<typeof chrome.runtime.onMessage, "addListener" | "removeListener">

/** Listens to `event` with the table's listener until the returned function is called. */
export function listenForMessages(event: MessageEvent, routes: MessageRoutes, options: DispatchOptions = {}): () => void {
  const listener = messageListener(routes, options)
  event.addListener(listener)
  return () => event.removeListener(listener)
}
