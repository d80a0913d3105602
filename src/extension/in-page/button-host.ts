/**
 * The on-image button's element: one host per document, styled so that the page can neither hide nor restyle it,
 * with the button in a closed shadow root. Built on the first hover (image-button.ts), never before.
 */
import { PRODUCT_NAME } from "~core/company"

import { BUTTON_HEIGHT_PX, COMPACT_BUTTON_SIZE, COMPANION_GAP_PX, NOTE_MAX_WIDTH_PX, placeNote, type ViewportRect } from "./button-placement"
import { createOwnHost, importantStyle } from "./own-nodes"

export const BUTTON_LABEL = "Analyse image"
export const BUTTON_ACCESSIBLE_NAME = `Analyse image with ${PRODUCT_NAME}`
export const HOST_TAG = "image-query-ai-button"
export const TRANSLATE_BUTTON_ACCESSIBLE_NAME = `Translate image with ${PRODUCT_NAME}`
/** How long a refused click's explanation stays (two short sentences). */
export const NOTE_SHOWN_MS = 8_000
/** Said under the button when a click was refused because something may be drawn over it (button-visibility.ts). */
export const BUTTON_COVERED_MESSAGE =
  "Something on this page may be covering this button, so it did nothing. To analyse the image, right-click it and choose Analyse image."
/** Said under the button when the page changed the image's address between the pointing and the click. */
export const IMAGE_CHANGED_MESSAGE =
  "The page changed this image after you pointed at it, so nothing was sent. Point at the image again, or right-click it and choose Analyse image."

/*
 * The host is styled inline with !important, which beats every page rule, so the page cannot
 * hide, move or resize it; everything inside is styled from the shadow root only. Page styles do
 * not cross the shadow boundary except by inheritance, which `all: initial` on the host cuts.
 */
export const HOST_STYLE = importantStyle([
  "all: initial",
  "display: block",
  "position: fixed",
  "top: 0",
  "left: 0",
  "width: 0",
  "height: 0",
  "overflow: visible",
  "z-index: 2147483647",
  "pointer-events: none"
])

/*
 * The buttons sit in one bar, the button at its right and Translate image at its left: the bar is what
 * IntersectionObserver v2 watches (button-visibility.ts), and its buttons' own shadows, which reach across the gap,
 * do not count as covering it, as they would between two separately watched buttons.
 */
const BUTTON_CSS = `
.bar {
  position: fixed;
  top: 0;
  left: 0;
  display: flex;
  flex-direction: row-reverse;
  gap: ${COMPANION_GAP_PX}px;
  pointer-events: none;
}
.bar[hidden] { display: none; }
.note {
  position: fixed;
  top: 0;
  left: 0;
  box-sizing: border-box;
  max-width: ${NOTE_MAX_WIDTH_PX}px;
  padding: 8px 10px;
  border-radius: 8px;
  background: #1F2937;
  color: #FFFFFF;
  font: 13px/1.4 Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  box-shadow: 0 2px 8px rgba(0, 0, 0, 0.35);
  pointer-events: none;
}
/* Empty, it stays in the accessibility tree, so that screen readers announce the text put into it. */
.note:empty { padding: 0; box-shadow: none; }
button {
  all: initial;
  box-sizing: border-box;
  display: flex;
  align-items: center;
  gap: 6px;
  width: max-content;
  height: ${BUTTON_HEIGHT_PX}px;
  padding: 0 12px 0 6px;
  border: 1px solid rgba(255, 255, 255, 0.7);
  border-radius: 16px;
  background: #1F2937;
  color: #FFFFFF;
  font-family: Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  font-size: 13px;
  font-weight: 600;
  line-height: 1;
  white-space: nowrap;
  overflow: hidden;
  box-shadow: 0 2px 8px rgba(0, 0, 0, 0.35);
  cursor: pointer;
  pointer-events: auto;
  user-select: none;
  -webkit-user-select: none;
}
button[hidden] { display: none; }
button:hover { background: #111827; border-color: #3B82F6; }
button:focus-visible {
  outline: 2px solid #FFFFFF;
  outline-offset: 1px;
  box-shadow: 0 0 0 5px #3B82F6, 0 2px 8px rgba(0, 0, 0, 0.35);
}
button.compact { width: ${COMPACT_BUTTON_SIZE.width}px; padding: 0; justify-content: center; }
button.compact span { display: none; }
button.translate { width: ${COMPACT_BUTTON_SIZE.width}px; padding: 0; justify-content: center; font-size: 12px; letter-spacing: -0.5px; }
svg { width: 20px; height: 20px; flex: none; }
`

const SVG_NS = "http://www.w3.org/2000/svg"

/** The brand mark of src/ui/Logo.tsx, built with DOM calls (no innerHTML: pages may enforce Trusted Types). */
function logoMark(document: Document): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg")
  svg.setAttribute("viewBox", "0 0 32 32")
  svg.setAttribute("aria-hidden", "true")
  svg.setAttribute("focusable", "false")
  const shapes: [string, Record<string, string>][] = [
    ["rect", { x: "1", y: "1", width: "30", height: "30", rx: "8", fill: "#3B82F6" }],
    ["path", { d: "M7 22l5-6 4 4 3-3 6 5v1H7z", fill: "#FFFFFF", opacity: "0.9" }],
    ["circle", { cx: "21", cy: "11", r: "4.5", fill: "none", stroke: "#FFFFFF", "stroke-width": "2" }],
    ["circle", { cx: "21", cy: "11", r: "1.8", fill: "#10B981" }]
  ]
  for (const [name, attributes] of shapes) {
    const shape = document.createElementNS(SVG_NS, name)
    for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, value)
    svg.append(shape)
  }
  return svg
}

export interface ButtonHandlers {
  onClick(event: MouseEvent): void
  onKeyDown(event: KeyboardEvent): void
}

function hiddenButton(document: Document, name: string, { onClick, onKeyDown }: ButtonHandlers): HTMLButtonElement {
  const button = document.createElement("button")
  button.type = "button"
  button.hidden = true
  button.setAttribute("aria-label", name)
  button.title = name
  // A mouse click must not move the page's focus onto a button that is about to hide.
  button.addEventListener("mousedown", (event) => event.preventDefault())
  button.addEventListener("click", onClick)
  button.addEventListener("keydown", onKeyDown)
  return button
}

export interface ButtonHost {
  host: HTMLElement
  shadow: ShadowRoot
  /** Holds the two buttons; hidden with them. */
  bar: HTMLElement
  button: HTMLButtonElement
  translateButton: HTMLButtonElement
  note: ButtonNote
}

/** Where a refused click says why: a polite live region beside the button, empty when there is nothing to say. */
export class ButtonNote {
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(readonly element: HTMLElement) {}

  /** Shows `message` beside the button's `box` for NOTE_SHOWN_MS (screen readers read it out). */
  say(message: string, box: ViewportRect, viewport: { width: number; height: number }): void {
    this.clear()
    this.element.textContent = message
    const { x, y } = placeNote(box, this.element.getBoundingClientRect(), viewport)
    this.element.style.transform = `translate(${x}px, ${y}px)`
    this.timer = setTimeout(() => this.clear(), NOTE_SHOWN_MS)
  }

  clear(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.element.textContent = ""
  }
}

/** The host, appended to the document, with its (hidden) buttons: *Analyse image* and, beside it, *Translate image*. */
export function createButtonHost(document: Document, handlers: ButtonHandlers): ButtonHost {
  // The button's click handler also insists on trusted events. Tests find it through the accessibility tree, as
  // assistive technology does.
  const { host, shadow } = createOwnHost(document, HOST_TAG, HOST_STYLE, BUTTON_CSS)
  const button = hiddenButton(document, BUTTON_ACCESSIBLE_NAME, handlers)
  const label = document.createElement("span")
  label.textContent = BUTTON_LABEL
  button.append(logoMark(document), label)
  const translateButton = hiddenButton(document, TRANSLATE_BUTTON_ACCESSIBLE_NAME, handlers)
  translateButton.className = "translate"
  // "Text, then A": the sign translation tools use; drawn as text, no font or image to load.
  translateButton.textContent = "文A"
  const bar = document.createElement("div")
  bar.className = "bar"
  bar.hidden = true
  bar.append(button, translateButton)
  const note = document.createElement("div")
  note.className = "note"
  note.setAttribute("role", "status")
  shadow.append(bar, note)
  document.documentElement.append(host)
  return { host, shadow, bar, button, translateButton, note: new ButtonNote(note) }
}
