import { afterEach, describe, expect, it, vi } from "vitest"

import { OWN_NODE_ATTRIBUTE } from "./own-nodes"
import { createImageWatcher, type ImageWatcher } from "./image-watcher"
import { type Scheduler } from "./page-timing"

/** A scheduler the test runs by hand, counting how often a flush was asked for. */
function manualScheduler() {
  const queue: (() => void)[] = []
  const schedule: Scheduler = (run) => {
    queue.push(run)
    return () => queue.splice(queue.indexOf(run), 1)
  }
  return {
    schedule,
    get pending() {
      return queue.length
    },
    runAll() {
      for (const run of queue.splice(0)) run()
    }
  }
}

const measurer = {
  natural: (element: Element) => {
    const size = element.getAttribute("data-natural")?.split("x").map(Number)
    return { width: size?.[0] ?? 50, height: size?.[1] ?? 50 }
  },
  rendered: () => ({ width: 10, height: 10 })
}

/** MutationObserver callbacks run asynchronously. */
const mutationsDelivered = () => new Promise((resolve) => setTimeout(resolve, 0))

const paths = (watcher: ImageWatcher) => watcher.images().map(({ url }) => new URL(url).pathname)

let watcher: ImageWatcher | undefined

function start(onChange = vi.fn()) {
  const scheduler = manualScheduler()
  watcher = createImageWatcher({ measurer, schedule: scheduler.schedule, onChange, probeBackgrounds: false }).start()
  return { scheduler, onChange, watcher }
}

afterEach(() => {
  watcher?.stop()
  watcher = undefined
  document.head.innerHTML = ""
  document.body.innerHTML = ""
})

describe("ImageWatcher", () => {
  it("scans once on start and answers from the index", () => {
    document.body.innerHTML = '<img src="/a.png"><img src="/b.png"><img src="/a.png">'
    const { watcher, onChange } = start()
    expect(paths(watcher)).toEqual(["/a.png", "/b.png"])
    expect(watcher.count()).toBe(2)
    expect(onChange).not.toHaveBeenCalled()
  })

  it("batches added images into one scheduled flush and reports the new count", async () => {
    document.body.innerHTML = '<img src="/a.png"><div id="list"></div>'
    const { scheduler, onChange, watcher } = start()
    const list = document.getElementById("list")!
    for (let index = 0; index < 5; index++) {
      const image = document.createElement("img")
      image.src = `/added-${index}.png`
      list.append(image)
    }
    await mutationsDelivered()
    expect(scheduler.pending).toBe(1)
    scheduler.runAll()
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(onChange).toHaveBeenCalledWith(6)
    expect(paths(watcher)).toEqual(["/a.png", "/added-0.png", "/added-1.png", "/added-2.png", "/added-3.png", "/added-4.png"])
  })

  it("follows src changes, removals, picture sources and inline-style backgrounds", async () => {
    document.body.innerHTML = `
      <img id="changing" src="/before.png">
      <img id="leaving" src="/leaving.png">
      <picture><source id="source" srcset="/one.png"><img id="pictured" src="/fallback.png"></picture>
      <div id="box"></div>`
    const { scheduler, watcher } = start()
    document.getElementById("changing")!.setAttribute("src", "/after.png")
    document.getElementById("leaving")!.remove()
    document.getElementById("box")!.style.backgroundImage = "url(/box.png)"
    const pictured = document.getElementById("pictured")!
    let current = new URL("/one.png", document.baseURI).href
    Object.defineProperty(pictured, "currentSrc", { get: () => current })
    current = new URL("/two.png", document.baseURI).href
    document.getElementById("source")!.setAttribute("srcset", "/two.png")
    await mutationsDelivered()
    scheduler.runAll()
    expect(paths(watcher)).toEqual(["/after.png", "/two.png", "/box.png"])
    expect(watcher.images().map(({ source }) => source)).toEqual(["img", "picture", "background"])

    document.getElementById("box")!.removeAttribute("style")
    await mutationsDelivered()
    scheduler.runAll()
    expect(paths(watcher)).toEqual(["/after.png", "/two.png"])
  })

  it("finds rule backgrounds after a class change or a new style sheet", async () => {
    document.head.innerHTML = "<style>.hero { background-image: url(/hero.png) }</style>"
    document.body.innerHTML = '<div id="banner"></div><div id="later"></div>'
    const { scheduler, watcher } = start()
    expect(paths(watcher)).toEqual([])
    document.getElementById("banner")!.className = "hero"
    await mutationsDelivered()
    scheduler.runAll()
    expect(paths(watcher)).toEqual(["/hero.png"])

    const style = document.createElement("style")
    style.textContent = "#later { background: url(/later.png) }"
    document.head.append(style)
    await mutationsDelivered()
    scheduler.runAll()
    expect(paths(watcher)).toEqual(["/hero.png", "/later.png"])
  })

  it("walks shadow roots, also ones added later, and observes inside them", async () => {
    document.body.innerHTML = '<div id="host"></div>'
    const first = document.getElementById("host")!.attachShadow({ mode: "open" })
    first.innerHTML = '<img src="/in-shadow.png">'
    const { scheduler, watcher } = start()
    expect(watcher.images().map(({ source }) => source)).toEqual(["shadow-root"])

    const image = document.createElement("img")
    image.src = "/shadow-later.png"
    first.append(image)
    const host = document.createElement("div")
    host.attachShadow({ mode: "open" }).innerHTML = '<img src="/new-host.png">'
    document.body.append(host)
    await mutationsDelivered()
    scheduler.runAll()
    expect(paths(watcher)).toEqual(["/in-shadow.png", "/shadow-later.png", "/new-host.png"])
  })

  it("never reacts to its own nodes", async () => {
    document.body.innerHTML = `<div id="own" ${OWN_NODE_ATTRIBUTE}><img id="own-image" src="/own.png"></div>`
    const { scheduler, onChange, watcher } = start()
    expect(paths(watcher)).toEqual([])

    const host = document.createElement("div")
    host.setAttribute(OWN_NODE_ATTRIBUTE, "")
    host.innerHTML = '<img src="/button.png">'
    document.body.append(host)
    document.getElementById("own-image")!.setAttribute("src", "/own-2.png")
    document.getElementById("own")!.append(document.createElement("img"))
    document.getElementById("own")!.style.backgroundImage = "url(/own-bg.png)"
    host.remove()
    await mutationsDelivered()
    expect(scheduler.pending).toBe(0)
    expect(onChange).not.toHaveBeenCalled()
    expect(paths(watcher)).toEqual([])
  })

  it("re-reads an image when it loads, and leaves out tiny ones from the count", async () => {
    document.body.innerHTML = '<img id="lazy" srcset="/lazy.png 1x"><img src="/pixel.gif" data-natural="1x1">'
    const { scheduler, onChange, watcher } = start()
    expect(watcher.count()).toBe(0)
    const lazy = document.getElementById("lazy")!
    Object.defineProperty(lazy, "currentSrc", { value: new URL("/lazy.png", document.baseURI).href })
    lazy.dispatchEvent(new Event("load"))
    expect(scheduler.pending).toBe(1)
    scheduler.runAll()
    expect(onChange).toHaveBeenCalledWith(1)
    expect(watcher.images().map(({ url, source }) => [new URL(url).pathname, source])).toEqual([["/lazy.png", "srcset"]])
  })

  it("applies pending changes when asked before the scheduled flush, and stops observing on stop()", async () => {
    document.body.innerHTML = ""
    const { scheduler, watcher } = start()
    const image = document.createElement("img")
    image.src = "/now.png"
    document.body.append(image)
    await mutationsDelivered()
    expect(paths(watcher)).toEqual(["/now.png"])
    expect(scheduler.pending).toBe(0)

    watcher.stop()
    document.body.append(document.createElement("img"))
    await mutationsDelivered()
    expect(scheduler.pending).toBe(0)
  })
})
