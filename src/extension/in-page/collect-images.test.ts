import { afterEach, describe, expect, it } from "vitest"

import {
  backgroundRules,
  backgroundUrls,
  collectPageImages,
  guessMimeType,
  isTinyImage,
  type ImageMeasurer
} from "./collect-images"
import { isOwnNode, OWN_NODE_ATTRIBUTE } from "./own-nodes"

/** happy-dom neither loads images nor lays out: sizes come from data attributes instead. */
const measurer: ImageMeasurer = {
  natural: (element, hit) => {
    const size = element.getAttribute(hit.source === "background" ? "data-bg-size" : "data-natural")?.split("x").map(Number)
    return { width: size?.[0] ?? 0, height: size?.[1] ?? 0 }
  },
  rendered: (element) => {
    const size = element.getAttribute("data-rendered")?.split("x").map(Number)
    return { width: size?.[0] ?? 0, height: size?.[1] ?? 0 }
  }
}

const base = () => document.baseURI
const abs = (path: string) => new URL(path, base()).href

afterEach(() => {
  document.head.innerHTML = ""
  document.body.innerHTML = ""
})

describe("collectPageImages", () => {
  it("finds img, picture, srcset, inline and rule backgrounds and shadow-root images, one per URL", () => {
    document.head.innerHTML = "<style>.hero { background: url(/rule.png) no-repeat } @media screen { .card::before { background-image: url('/pseudo.png') } }</style>"
    document.body.innerHTML = `
      <img src="/plain.png" alt="Plain" data-natural="120x80" data-rendered="60x40">
      <img src="/plain.png" alt="Again" data-natural="120x80" data-rendered="10x10">
      <picture><source srcset="/source.png"><img id="pictured" src="/fallback.png" alt="Pictured"></picture>
      <img id="responsive" srcset="/small.png 1x, /large.png 2x" alt="Responsive">
      <div style="background-image: url('/inline.png')" aria-label="Inline" data-bg-size="140x70" data-rendered="140x70"></div>
      <section class="hero" title="Hero"></section>
      <div id="host"></div>
      <img src="/pixel.gif" data-natural="1x1">
      <img alt="no source">
      <div ${OWN_NODE_ATTRIBUTE}><img src="/own.png"><div style="background-image: url(/own-bg.png)"></div></div>`
    // What the browser would have chosen for the responsive images.
    Object.defineProperty(document.getElementById("pictured"), "currentSrc", { value: abs("/source.png") })
    Object.defineProperty(document.getElementById("responsive"), "currentSrc", { value: abs("/small.png") })
    const shadow = document.getElementById("host")!.attachShadow({ mode: "open" })
    shadow.innerHTML = '<img src="/shadow.png" alt="Shadowed">'

    const images = collectPageImages(document, measurer)
    expect(images.map(({ url, source, alt }) => ({ url: url.replace(new URL(base()).origin, ""), source, alt }))).toEqual([
      { url: "/plain.png", source: "img", alt: "Plain" },
      { url: "/source.png", source: "picture", alt: "Pictured" },
      { url: "/small.png", source: "srcset", alt: "Responsive" },
      { url: "/inline.png", source: "background", alt: "Inline" },
      { url: "/rule.png", source: "background", alt: "Hero" },
      { url: "/shadow.png", source: "shadow-root", alt: "Shadowed" }
    ])
    expect(images[0]).toMatchObject({ width: 120, height: 80, renderedWidth: 60, renderedHeight: 40, mimeType: "image/png" })
    expect(images[3]).toMatchObject({ width: 140, height: 70, renderedWidth: 140, renderedHeight: 70 })
  })

  it("reads nothing but the document's own nodes when the page has no images", () => {
    document.body.innerHTML = "<p>Text only</p>"
    expect(collectPageImages(document, measurer)).toEqual([])
  })
})

describe("helpers", () => {
  it("parses computed background-image values, skipping gradients", () => {
    expect(backgroundUrls('linear-gradient(red, blue), url("a b.png"), url(\'/c.png\'), url(d.png)', "https://example.com/x/")).toEqual([
      "https://example.com/x/a%20b.png",
      "https://example.com/c.png",
      "https://example.com/x/d.png"
    ])
    expect(backgroundUrls("none", "https://example.com/")).toEqual([])
    expect(backgroundUrls("", "https://example.com/")).toEqual([])
  })

  it("guesses MIME types from extensions and data: URLs", () => {
    expect(guessMimeType("https://example.com/a/photo.JPG?w=10")).toBe("image/jpeg")
    expect(guessMimeType("https://example.com/icon.svg#frag")).toBe("image/svg+xml")
    expect(guessMimeType("data:image/webp;base64,AAAA")).toBe("image/webp")
    expect(guessMimeType("https://example.com/image?id=3")).toBe("")
  })

  it("treats loaded images of 2 × 2 px or less as tracking pixels", () => {
    expect(isTinyImage({ width: 1, height: 1 })).toBe(true)
    expect(isTinyImage({ width: 2, height: 2 })).toBe(true)
    expect(isTinyImage({ width: 0, height: 0 })).toBe(false)
    expect(isTinyImage({ width: 1, height: 40 })).toBe(false)
  })

  it("collects the selectors of rules that set background images, pseudo-elements stripped", () => {
    document.head.innerHTML =
      "<style>.a { color: red } .b { background-image: url(x.png) } .c::after, .d { background: url(y.png) } @media (min-width: 1px) { .e { background-image: var(--img) } }</style>"
    const rules = backgroundRules(document)
    expect(rules.complete).toBe(true)
    expect(rules.selector).toBe(".b, .c, .d, .e")
  })

  it("recognises nodes inside an own host, also through shadow roots", () => {
    document.body.innerHTML = `<div ${OWN_NODE_ATTRIBUTE}><span id="inner"></span><div id="ownhost"></div></div><p id="page"></p>`
    const shadow = document.getElementById("ownhost")!.attachShadow({ mode: "open" })
    shadow.innerHTML = "<img>"
    expect(isOwnNode(document.getElementById("inner")!)).toBe(true)
    expect(isOwnNode(shadow.querySelector("img")!)).toBe(true)
    expect(isOwnNode(document.getElementById("page")!)).toBe(false)
  })
})
