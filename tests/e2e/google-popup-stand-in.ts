/**
 * A local stand-in for the one part of Google's popup sign-in that lives on Google's servers: the iframe messaging
 * library `https://apis.google.com/js/api.js` (gapi.iframes). Firebase's SDK loads it in our page to talk to its
 * helper frame, and the Auth emulator's helper frame loads it too; nothing else of the flow needs the internet
 * (the popup and the helper frame are the emulator's own pages). Test code only.
 *
 * It implements just what those two callers use: `gapi.load`, `gapi.iframes.getContext().open(...)` (the SDK
 * opening the helper frame, with `ping`, `register`, `send`, `restyle`) and `getParentIframe()` (the helper frame
 * answering its parent), over window.postMessage.
 */
import type { Browser, HTTPRequest, Page, Target } from "puppeteer-core"

import { clickAndWaitForClose } from "./browser"

const GAPI_SCRIPT_URL = "https://apis.google.com/js/api.js"

const GAPI_STAND_IN = String.raw`(() => {
  if (window.gapi && window.gapi.iframes) return
  const MARK = "gapiStandIn"
  const channels = []
  const replies = new Map()
  let sequence = 0

  // gapi swallows what its callbacks throw (Firebase's web-storage callback throws after answering).
  const quietly = (callback, ...values) => {
    try {
      callback(...values)
    } catch (error) {
      console.debug("gapi stand-in: a callback threw", error)
    }
  }

  function channelTo(target) {
    const channel = {
      target,
      handlers: new Map(),
      // Calls that came before their handler was registered, answered once it is (the helper frame sends its
      // first authEvent as soon as it loads, while Firebase registers its handler only after the ping).
      waiting: [],
      onPong: null,
      register(type, handler) {
        channel.handlers.set(type, handler)
        const ready = channel.waiting.filter((call) => call.type === type)
        channel.waiting = channel.waiting.filter((call) => call.type !== type)
        for (const call of ready) answer(channel, call)
      },
      unregister: (type) => void channel.handlers.delete(type),
      send(type, data, callback) {
        const id = MARK + ":" + Math.random().toString(36).slice(2) + ":" + sequence++
        if (callback) replies.set(id, callback)
        target.postMessage({ [MARK]: "call", id, type, data }, "*")
      }
    }
    channels.push(channel)
    return channel
  }

  function answer(channel, call) {
    const results = [channel.handlers.get(call.type)(call.data)]
    channel.target.postMessage({ [MARK]: "reply", id: call.id, results }, "*")
  }

  window.addEventListener("message", (event) => {
    const message = event.data
    if (!message || typeof message !== "object" || !(MARK in message)) return
    const channel = channels.find((candidate) => candidate.target === event.source)
    if (!channel) return
    switch (message[MARK]) {
      case "ping":
        event.source.postMessage({ [MARK]: "pong" }, "*")
        break
      case "pong":
        if (channel.onPong) channel.onPong()
        break
      case "call":
        if (channel.handlers.has(message.type)) answer(channel, message)
        else channel.waiting.push(message)
        break
      case "reply": {
        const callback = replies.get(message.id)
        replies.delete(message.id)
        if (callback) quietly(callback, message.results)
        break
      }
    }
  })

  function openFrame(options, onOpened) {
    const element = document.createElement("iframe")
    for (const [name, value] of Object.entries(options.attributes || {})) {
      if (name === "style") Object.assign(element.style, value)
      else element.setAttribute(name, String(value))
    }
    element.src = options.url
    ;(options.where || document.body).appendChild(element)
    // The frame's WindowProxy stays the same across its navigation, so the channel is valid from now on.
    const channel = channelTo(element.contentWindow)
    const frame = {
      register: channel.register,
      unregister: channel.unregister,
      send: channel.send,
      restyle: () => Promise.resolve(),
      ping(callback) {
        return new Promise((resolve) => {
          const timer = setInterval(() => element.contentWindow && element.contentWindow.postMessage({ [MARK]: "ping" }, "*"), 50)
          channel.onPong = () => {
            channel.onPong = null
            clearInterval(timer)
            if (callback) quietly(callback)
            resolve()
          }
        })
      }
    }
    return Promise.resolve(onOpened ? onOpened(frame) : frame)
  }

  let parentChannel = null
  window.gapi = {
    load(_module, options) {
      const callback = typeof options === "function" ? options : options && options.callback
      if (callback) setTimeout(callback, 0)
    },
    iframes: {
      CROSS_ORIGIN_IFRAMES_FILTER: "gapi-stand-in-cross-origin",
      Iframe: function Iframe() {},
      getContext: () => ({
        open: openFrame,
        getParentIframe: () => (parentChannel = parentChannel || channelTo(window.parent))
      })
    }
  }

  const onload = document.currentScript && new URL(document.currentScript.src).searchParams.get("onload")
  setTimeout(() => {
    if (typeof window.gapi_onload === "function") window.gapi_onload()
    if (onload && typeof window[onload] === "function") window[onload]()
  }, 0)
})()
`

function answerGoogleScript(request: HTTPRequest): void {
  if (request.isInterceptResolutionHandled()) return
  if (request.url().startsWith(GAPI_SCRIPT_URL)) {
    void request.respond({ status: 200, contentType: "text/javascript; charset=utf-8", body: GAPI_STAND_IN })
  } else {
    void request.continue()
  }
}

/**
 * Serves the stand-in for Google's script to this page and its frames; every other request goes out as usual.
 * The emulator's helper frame reports its internal errors with alert(), which would block it: such dialogs are
 * dismissed and their texts returned, for the test to expect none.
 */
export async function serveGoogleScriptStandIn(page: Page): Promise<{ dialogs: string[] }> {
  const dialogs: string[] = []
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  await page.setRequestInterception(true)
  page.on("request", answerGoogleScript)
  return { dialogs }
}

/**
 * Signs in on the Auth emulator's Google popup: a new Google user (`name` given) through its "Add new account"
 * form, or an existing one chosen from its account list. Resolves once the popup has closed (Firebase closes it
 * when the answer has arrived).
 */
export async function completeGooglePopup(browser: Browser, opener: Page, user: { email: string; name?: string }): Promise<void> {
  const target = await browser.waitForTarget(
    (candidate: Target) => candidate.opener() === opener.target() && candidate.url().includes("/emulator/auth/handler"),
    { timeout: 30_000 }
  )
  const popup = (await target.page())!
  await popup.waitForSelector("#add-account-button", { timeout: 15_000 })
  if (user.name) {
    await popup.click("#add-account-button")
    await popup.waitForSelector("#email-input", { visible: true })
    await popup.type("#email-input", user.email)
    await popup.type("#display-name-input", user.name)
    await clickAndWaitForClose(popup, () => popup.click("#sign-in"))
  } else {
    const account = await popup.waitForSelector(`xpath/.//li[contains(@class, 'js-reuse-account')][.//*[normalize-space()='${user.email}']]`)
    await clickAndWaitForClose(popup, () => account!.click())
  }
}
