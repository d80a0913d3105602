// @vitest-environment node
import { describe, expect, it, vi } from "vitest"

import { defineMessage } from "~core/protocol"

import { answerMessage, listenForMessages, messageListener, messageRoute, type MessageRoutes, type MessageSender } from "./message-dispatch"

const ping = defineMessage("PING", {})

const friend: MessageSender = { id: "us", url: "chrome-extension://us/popup.html" }
const stranger: MessageSender = { id: "them", url: "https://example.com/" }
const isFriend = (sender: MessageSender) => sender.id === "us"

/** Calls a listener as Chrome does and collects what it answers. */
function send(listener: ReturnType<typeof messageListener>, message: unknown, sender: MessageSender) {
  const sendResponse = vi.fn()
  const keptOpen = listener(message, sender, sendResponse)
  return { keptOpen, sendResponse, answer: () => vi.waitFor(() => expect(sendResponse).toHaveBeenCalledOnce()).then(() => sendResponse.mock.calls[0]![0]) }
}

describe("a route", () => {
  it("hands the handler what the check accepted, and answers with what the handler returns", () => {
    const handle = vi.fn(({ message }: { ok: true; message: { type: "PING" } }, _sender: MessageSender) => ({ pong: message.type }))
    const route = messageRoute({ from: isFriend, check: ping.parse, handle })
    expect(answerMessage(route, { type: "PING" }, friend)).toEqual({ pong: "PING" })
    expect(handle).toHaveBeenCalledWith({ ok: true, message: { type: "PING" } }, friend)
  })

  it("answers a refused sender and a refused message when it names its refusal", () => {
    const handle = vi.fn()
    const route = messageRoute({ from: isFriend, refusal: "Not you", check: () => ({ ok: false, error: "Bad message" }) as const, handle })
    expect(answerMessage(route, { type: "PING" }, stranger)).toEqual({ success: false, error: "Not you" })
    expect(answerMessage(route, { type: "PING" }, friend)).toEqual({ success: false, error: "Bad message" })
    expect(handle).not.toHaveBeenCalled()
  })

  it("stays silent on both without a refusal", () => {
    const handle = vi.fn()
    const route = messageRoute({ from: isFriend, check: () => ({ ok: false, error: "Bad message" }) as const, handle })
    expect(answerMessage(route, { type: "PING" }, stranger)).toBeUndefined()
    expect(answerMessage(route, { type: "PING" }, friend)).toBeUndefined()
    expect(handle).not.toHaveBeenCalled()
  })

  it("checks the sender before the message", () => {
    const check = vi.fn(ping.parse)
    const route = messageRoute({ from: isFriend, refusal: "Not you", check, handle: () => "done" })
    answerMessage(route, "not even an object", stranger)
    expect(check).not.toHaveBeenCalled()
  })

  it("answers a handler that throws, or rejects, with {success: false, error}", async () => {
    const throwing = messageRoute({ from: isFriend, check: ping.parse, handle: (): string => { throw new Error("Broken") } })
    expect(answerMessage(throwing, { type: "PING" }, friend)).toEqual({ success: false, error: "Broken" })
    const rejecting = messageRoute({ from: isFriend, check: ping.parse, handle: () => Promise.reject(new Error("Later broken")) })
    await expect(answerMessage(rejecting, { type: "PING" }, friend)).resolves.toEqual({ success: false, error: "Later broken" })
  })
})

describe("the listener of a route table", () => {
  const routes: MessageRoutes = {
    PING: messageRoute({ from: isFriend, refusal: "Not you", check: ping.parse, handle: () => ({ pong: true }) }),
    LATER: messageRoute({
      from: isFriend,
      check: (message) => ({ ok: true, message }) as const,
      handle: () => new Promise<string>((resolve) => setTimeout(() => resolve("later"), 5))
    }),
    QUIET: messageRoute({ from: isFriend, check: (message) => ({ ok: true, message }) as const, handle: () => undefined })
  }

  it("routes each message by its type", async () => {
    const listener = messageListener(routes)
    const sent = send(listener, { type: "PING" }, friend)
    expect(sent.keptOpen).toBe(true)
    expect(await sent.answer()).toEqual({ pong: true })
  })

  it("answers a route's refusal of the sender", async () => {
    const sent = send(messageListener(routes), { type: "PING" }, stranger)
    expect(await sent.answer()).toEqual({ success: false, error: "Not you" })
  })

  it("keeps the channel open for an answer that comes later, and sends it once it is there", async () => {
    const sent = send(messageListener(routes), { type: "LATER" }, friend)
    expect(sent.keptOpen).toBe(true)
    expect(sent.sendResponse).not.toHaveBeenCalled()
    expect(await sent.answer()).toBe("later")
  })

  it("leaves unknown types, messages without a type and handlers that answer nothing to other listeners", async () => {
    const listener = messageListener(routes)
    for (const message of [{ type: "OTHER" }, { type: "toString" }, { type: 42 }, "PING", null, { type: "QUIET" }]) {
      const sent = send(listener, message, friend)
      expect(sent.keptOpen).toBe(false)
      await Promise.resolve()
      expect(sent.sendResponse).not.toHaveBeenCalled()
    }
  })

  it("gives messages without a route of their own to the unrouted route, told their type", async () => {
    const unrouted = vi.fn((type: unknown) => (type === "OTHER" || type === undefined ? routes.PING : undefined))
    const listener = messageListener(routes, { unrouted })
    expect(await send(listener, { type: "OTHER" }, stranger).answer()).toEqual({ success: false, error: "Not you" })
    expect(await send(listener, "no type at all", stranger).answer()).toEqual({ success: false, error: "Not you" })
    expect(send(listener, { type: "ANOTHER" }, stranger).keptOpen).toBe(false)
    expect(unrouted.mock.calls.map(([type]) => type)).toEqual(["OTHER", undefined, "ANOTHER"])
  })

  it("calls the handler before the listener returns, so the user's gesture is still there", () => {
    const order: string[] = []
    const listener = messageListener({
      PING: messageRoute({
        from: isFriend,
        check: ping.parse,
        handle: () => {
          order.push("handled")
          return Promise.resolve("opened")
        }
      })
    })
    listener({ type: "PING" }, friend, () => order.push("answered"))
    order.push("returned")
    expect(order).toEqual(["handled", "returned"])
  })
})

describe("listenForMessages", () => {
  it("adds the table's listener to the event and removes it again", async () => {
    const listeners = new Set<(...args: never[]) => unknown>()
    const event = {
      addListener: (listener: (...args: never[]) => unknown) => void listeners.add(listener),
      removeListener: (listener: (...args: never[]) => unknown) => void listeners.delete(listener)
    } as unknown as typeof chrome.runtime.onMessage
    const stop = listenForMessages(event, { PING: messageRoute({ from: isFriend, check: ping.parse, handle: () => "pong" }) })
    expect(listeners.size).toBe(1)
    const [listener] = [...listeners] as ReturnType<typeof messageListener>[]
    expect(await send(listener!, { type: "PING" }, friend).answer()).toBe("pong")
    stop()
    expect(listeners.size).toBe(0)
  })
})
