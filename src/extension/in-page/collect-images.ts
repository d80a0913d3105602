import type { PageImage, PageImageSource } from "~extension/messaging/messages"

import { isShadowRoot, OWN_NODE_ATTRIBUTE, OWN_SELECTOR } from "./own-nodes"

/**
 * The building blocks of image finding, shared by the one-shot collectPageImages below and the
 * incremental index in image-watcher.ts:
 * - walkSubtree: one pass over a subtree's elements (no style or layout reads) that collects <img>
 *   elements, elements whose inline style may set a background image, and open shadow roots, and
 *   skips anything inside one of our own hosts (OWN_NODE_ATTRIBUTE).
 * - backgroundRules: the selectors of the readable style rules that set a background image.
 *   Elements are checked with getComputedStyle only when they match one of those or have such an
 *   inline style, because a computed style for every element is the main cost on large pages.
 *   When a style sheet cannot be read (cross-origin without CORS) every element of that root is
 *   checked instead (see bench/page-scan.ts for what each way costs).
 * - describeImages: turns found images into PageImage records, reading natural sizes first and
 *   then all rendered sizes in one batch, so that layout is forced at most once.
 */

export interface Size {
  width: number
  height: number
}

export interface FoundImage {
  url: string
  source: PageImageSource
}

/** An image source (url) found on an element, before sizes are read. */
export interface ImageHit extends FoundImage {
  element: Element
}

export interface ImageMeasurer {
  /** Intrinsic size; 0 × 0 while unknown. */
  natural(element: Element, hit: FoundImage): Size
  /** Size on the page in CSS pixels. */
  rendered(element: Element): Size
}

/** A CSS value that may produce an image: a url(), an image-set() or a custom property we cannot resolve statically. */
const IMAGE_VALUE = /url\(|image-set\(|var\(/i

export interface BackgroundRules {
  /** Selector list of the rules that set a background image; "" when none. */
  selector: string
  /** False when some style sheet could not be read: then every element must be checked. */
  complete: boolean
  /** Changes when sheets or top-level rules are added or removed (insertRule does not mutate the DOM). */
  signature: string
}

const PSEUDO_ELEMENT = /::?(?:before|after|first-line|first-letter|marker|placeholder|selection|backdrop|file-selector-button)\b|::[\w-]+(?:\([^)]*\))?/gi

function styleSheetsOf(root: Document | ShadowRoot): CSSStyleSheet[] {
  const sheets: CSSStyleSheet[] = Array.from(root.styleSheets ?? [])
  const adopted = (root as { adoptedStyleSheets?: readonly CSSStyleSheet[] }).adoptedStyleSheets
  if (adopted?.length) sheets.push(...adopted)
  return sheets
}

/** A cheap fingerprint of a root's style sheets: their number and each one's rule count. */
export function styleSignature(root: Document | ShadowRoot): string {
  let signature = ""
  for (const sheet of styleSheetsOf(root)) {
    let count: number | string
    try {
      count = sheet.cssRules.length
    } catch {
      count = "x"
    }
    signature += `${count},`
  }
  return signature
}

function isValidSelector(root: Document | ShadowRoot, selector: string): boolean {
  try {
    root.querySelector(selector)
    return true
  } catch {
    return false
  }
}

export function backgroundRules(root: Document | ShadowRoot): BackgroundRules {
  const selectors = new Set<string>()
  let complete = true
  const visitRules = (rules: CSSRuleList) => {
    for (let index = 0; index < rules.length; index++) {
      const rule = rules[index] as CSSRule & Partial<CSSStyleRule & CSSGroupingRule & CSSImportRule>
      if (typeof rule.selectorText === "string" && rule.style) {
        const style = rule.style
        if (IMAGE_VALUE.test(style.backgroundImage || "") || IMAGE_VALUE.test(style.getPropertyValue("background"))) {
          // Nested rules (&) and rules on pseudo-elements only say which element to look at.
          const selector = rule.selectorText.replace(PSEUDO_ELEMENT, "").trim()
          if (selector && !selector.includes("&")) selectors.add(selector)
        }
      }
      if (rule.cssRules) visitRules(rule.cssRules)
      if (rule.styleSheet) visitSheet(rule.styleSheet)
    }
  }
  const visitSheet = (sheet: CSSStyleSheet) => {
    let rules: CSSRuleList
    try {
      rules = sheet.cssRules
    } catch {
      complete = false
      return
    }
    visitRules(rules)
  }
  for (const sheet of styleSheetsOf(root)) visitSheet(sheet)
  let selector = [...selectors].join(", ")
  if (selector && !isValidSelector(root, selector)) {
    selector = [...selectors].filter((one) => isValidSelector(root, one)).join(", ")
  }
  return { selector, complete, signature: styleSignature(root) }
}

export interface SubtreeScan {
  images: HTMLImageElement[]
  /** Elements whose background image must be read from their computed style. */
  backgrounds: Element[]
  shadowRoots: ShadowRoot[]
}

export function emptyScan(): SubtreeScan {
  return { images: [], backgrounds: [], shadowRoots: [] }
}

/**
 * Walks `top` and its descendants (not into shadow roots: those are reported for their own walk),
 * skipping our own hosts. With `everyBackground` every element is a background candidate.
 */
export function walkSubtree(top: Element, scan: SubtreeScan, everyBackground = false): void {
  let element: Element | null = top
  while (element) {
    let next: Element | null = null
    if (!element.hasAttribute(OWN_NODE_ATTRIBUTE)) {
      if (element.localName === "img") scan.images.push(element as HTMLImageElement)
      if (everyBackground) scan.backgrounds.push(element)
      else {
        const style = element.getAttribute("style")
        if (style && IMAGE_VALUE.test(style)) scan.backgrounds.push(element)
      }
      const shadowRoot = element.shadowRoot
      if (shadowRoot) scan.shadowRoots.push(shadowRoot)
      next = element.firstElementChild
    }
    if (!next) {
      let current: Element | null = element
      while (current && current !== top && !current.nextElementSibling) current = current.parentElement
      next = current && current !== top ? current.nextElementSibling : null
    }
    element = next
  }
}

/** Elements of a subtree (including `top`) that match the background rules, outside our own hosts. */
export function ruleBackgrounds(top: Element, selector: string, into: Element[]): void {
  if (!selector) return
  if (top.matches(selector) && !top.hasAttribute(OWN_NODE_ATTRIBUTE)) into.push(top)
  const matches = top.querySelectorAll(selector)
  for (let index = 0; index < matches.length; index++) {
    const element = matches[index]!
    if (!element.closest(OWN_SELECTOR)) into.push(element)
  }
}

/** The URL an <img> shows, and what kind of image it is; null when it has none. */
export function imageOfImg(image: HTMLImageElement): FoundImage | null {
  let url = image.currentSrc
  if (!url) {
    if (!image.getAttribute("src")?.trim()) return null
    url = image.src
  }
  if (!url) return null
  const parent = image.parentElement
  const source: PageImageSource = isShadowRoot(image.getRootNode())
    ? "shadow-root"
    : parent?.localName === "picture"
      ? "picture"
      : image.hasAttribute("srcset")
        ? "srcset"
        : "img"
  return { url, source }
}

const CSS_URL = /url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)\s]*))\s*\)/gi

/** The url()s of a computed background-image value, made absolute. */
export function backgroundUrls(value: string, baseUrl: string): string[] {
  if (!value || value === "none" || !value.includes("url(")) return []
  const urls: string[] = []
  for (const match of value.matchAll(CSS_URL)) {
    const raw = (match[1] ?? match[2] ?? match[3] ?? "").replace(/\\(.)/g, "$1").trim()
    if (!raw) continue
    try {
      const url = new URL(raw, baseUrl).href
      if (!urls.includes(url)) urls.push(url)
    } catch {
      // not a URL the browser could load either
    }
  }
  return urls
}

/** Background images of the given elements: one computed-style read each, no layout. */
export function backgroundsOf(element: Element): FoundImage[] {
  const view = element.ownerDocument.defaultView
  if (!view) return []
  return backgroundUrls(view.getComputedStyle(element).backgroundImage, element.baseURI).map((url) => ({ url, source: "background" }))
}

const EXTENSION_TYPES: Record<string, string> = {
  png: "image/png",
  apng: "image/apng",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  jfif: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  bmp: "image/bmp",
  ico: "image/x-icon",
  tif: "image/tiff",
  tiff: "image/tiff"
}

/** MIME type from a data: URL or from the file extension of the URL's path; "" when unknown. */
export function guessMimeType(url: string): string {
  if (url.startsWith("data:")) {
    const end = url.search(/[;,]/)
    return end > 5 ? url.slice(5, end).toLowerCase() : ""
  }
  let pathname: string
  try {
    pathname = new URL(url).pathname
  } catch {
    return ""
  }
  const extension = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase()
  return (extension && EXTENSION_TYPES[extension]) ?? ""
}

/** Images this small once loaded are tracking pixels and spacers, not images a user means. */
export function isTinyImage({ width, height }: Size): boolean {
  return width > 0 && height > 0 && width <= 2 && height <= 2
}

export const domMeasurer: ImageMeasurer = {
  natural(element, hit) {
    if (hit.source !== "background" && element.localName === "img") {
      const image = element as HTMLImageElement
      return { width: image.naturalWidth, height: image.naturalHeight }
    }
    return { width: 0, height: 0 }
  },
  rendered(element) {
    const box = element.getBoundingClientRect()
    return { width: Math.round(box.width), height: Math.round(box.height) }
  }
}

function altOf(element: Element, source: PageImageSource): string {
  if (source !== "background") return element.getAttribute("alt") ?? ""
  return element.getAttribute("aria-label") ?? element.getAttribute("title") ?? ""
}

/**
 * One PageImage per URL (the first hit wins), without tiny images. Natural sizes are read first,
 * then all rendered sizes in one pass with no DOM writes in between.
 */
export function describeImages(hits: Iterable<ImageHit>, measurer: ImageMeasurer = domMeasurer): PageImage[] {
  const kept: { hit: ImageHit; natural: Size }[] = []
  const seen = new Set<string>()
  for (const hit of hits) {
    if (seen.has(hit.url)) continue
    seen.add(hit.url)
    const natural = measurer.natural(hit.element, hit)
    if (!isTinyImage(natural)) kept.push({ hit, natural })
  }
  return kept.map(({ hit, natural }) => {
    const rendered = measurer.rendered(hit.element)
    return {
      url: hit.url,
      width: natural.width,
      height: natural.height,
      renderedWidth: rendered.width,
      renderedHeight: rendered.height,
      alt: altOf(hit.element, hit.source),
      source: hit.source,
      mimeType: guessMimeType(hit.url)
    }
  })
}

/** Everything one scan of a document finds: its shadow roots too, in the order walked. */
export function scanDocument(root: Document | ShadowRoot, hits: ImageHit[] = []): ImageHit[] {
  const rules = backgroundRules(root)
  const scan = emptyScan()
  for (const top of Array.from(root.children)) {
    walkSubtree(top, scan, !rules.complete)
    if (rules.complete) ruleBackgrounds(top, rules.selector, scan.backgrounds)
  }
  for (const image of scan.images) {
    const found = imageOfImg(image)
    if (found) hits.push({ ...found, element: image })
  }
  for (const element of new Set(scan.backgrounds)) {
    for (const found of backgroundsOf(element)) hits.push({ ...found, element })
  }
  for (const shadowRoot of scan.shadowRoots) scanDocument(shadowRoot, hits)
  return hits
}

/**
 * The images of one document, one entry per URL, with intrinsic and rendered size: <img> (its
 * currentSrc), <picture>, CSS backgrounds, and images in open shadow roots. Frames answer for
 * themselves (each runs the content script). Background images report 0 × 0 here; the
 * ImageWatcher measures them by loading them.
 */
export function collectPageImages(root: Document = document, measurer: ImageMeasurer = domMeasurer): PageImage[] {
  return describeImages(scanDocument(root), measurer)
}
