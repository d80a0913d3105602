/**
 * The on-image "Analyse image" button's behaviour: one host element for the whole document, shown over the
 * image under the pointer (or the image of the focused link) when that image is a button target. Which images
 * qualify and where the button goes are in button-placement.ts; the element itself in button-host.ts.
 *
 * Cost on pages with thousands of images: five listeners on the window (capturing, so the page
 * cannot swallow the events first) and none per image. Layout is read only when the pointer enters
 * an image or focus enters a link, and while the button is shown (scroll and resize, once per
 * animation frame). The host is created on the first hover, carries OWN_NODE_ATTRIBUTE so the image
 * watcher never indexes or observes it, and is reused for every image.
 *
 * Only on what the person sees and pointed at: the picture's address is taken when the button appears and a click
 * after the page changed it is refused (a page's capturing pointerdown runs before ours and could swap it at the
 * press), and a click is refused while the button may be covered or hidden (button-visibility.ts; a mouse press over
 * another image does not move the button there either). A refused click says why under the button.
 *
 * Keyboard route: when focus enters an image's link or button (a[href], button, role link or
 * button) or a focusable image, the button appears and Tab moves to it next; Tab from the button
 * goes on to whatever follows that link, Shift+Tab returns to the link, Enter or Space activates it
 * and Escape hides it (until focus leaves the link). Tab is redirected by hand because the host
 * sits at the end of the document, not beside the link: inserting it into the page's own markup
 * would change its selectors (:last-child, + and ~) and could upset the page's framework.
 */
import { BUTTON_COVERED_MESSAGE, type ButtonNote, createButtonHost, HOST_STYLE, IMAGE_CHANGED_MESSAGE } from "./button-host"
import { imageAddressOf, imageUrlOf, isButtonTarget, placeButton, placeCompanion } from "./button-placement"
import { canCheckVisibility, VisibilityWatch } from "./button-visibility"


/** Time the pointer has to travel from the image to the button before it hides. */
export const HIDE_DELAY_MS = 300
const ANCHOR_SELECTOR = "a[href], area[href], button, [role='link'], [role='button']"
/** A link may wrap a whole card; its first few images are enough to find the picture. */
const IMAGES_CHECKED_PER_ANCHOR = 8

function isImageElement(node: EventTarget | null | undefined): node is HTMLImageElement {
  return !!node && (node as Element).localName === "img" && (node as Element).namespaceURI === "http://www.w3.org/1999/xhtml"
}

/** The innermost target, inside open shadow roots too (closed ones stay opaque, ours included). */
function deepTarget(event: Event): EventTarget | null {
  return event.composedPath()[0] ?? event.target
}

function deepActiveElement(document: Document): Element | null {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active
}

const CAPTURE_PASSIVE: AddEventListenerOptions = { capture: true, passive: true }

/** What the user asked for: the side panel on the image, or its text translated over it (*Translate image*). */
export type ImageButtonAction = "analyse" | "translate"

export interface ImageButtonOptions {
  /** Called synchronously inside the trusted click (the service worker needs the user's gesture). */
  onActivate(image: { url: string; action: ImageButtonAction }): void
  document?: Document
}

export class ImageButton {
  private readonly document: Document
  private readonly window: Window
  private readonly onActivate: ImageButtonOptions["onActivate"]
  private host: HTMLElement | null = null
  private button: HTMLButtonElement | null = null
  /** *Translate image*, left of the button when the image has room for both. */
  private translateButton: HTMLButtonElement | null = null
  /** Holds both buttons: hidden with them, moved with them. */
  private bar: HTMLElement | null = null
  /** Says why a click was refused. */
  private note: ButtonNote | null = null
  private visibility: VisibilityWatch | null = null
  /** The image the button is shown for. */
  private image: HTMLImageElement | null = null
  /** Its picture when the button appeared: the address a click sends, and what must not have changed by then. */
  private pointed: { url: string; address: string } | null = null
  /** The focused link (or image) that brought the button up from the keyboard. */
  private anchor: HTMLElement | null = null
  /**
   * The anchor or image whose button was just used or dismissed: not shown again for it until
   * focus or the pointer leaves it (hiding the button puts the pointer back over the image).
   */
  private suppressed: EventTarget | null = null
  private hideTimer: ReturnType<typeof setTimeout> | undefined
  private frame = 0
  private tracking = false
  /** The labelled button's width, measured once: it depends on the fonts of the machine. */
  private fullWidth = 0

  constructor({ onActivate, document: root = document }: ImageButtonOptions) {
    this.document = root
    this.window = root.defaultView!
    this.onActivate = onActivate
  }

  start(): this {
    // A frame where no click could be checked (see button-visibility.ts) gets no button at all, rather than one that refuses.
    if (!canCheckVisibility(this.window)) return this
    this.window.addEventListener("pointerover", this.onPointerOver, CAPTURE_PASSIVE)
    this.window.addEventListener("pointerout", this.onPointerOut, CAPTURE_PASSIVE)
    this.window.addEventListener("focusin", this.onFocusIn, CAPTURE_PASSIVE)
    this.window.addEventListener("focusout", this.onFocusOut, CAPTURE_PASSIVE)
    // Not passive: Tab on the anchor is redirected to the button.
    this.window.addEventListener("keydown", this.onKeyDown, true)
    return this
  }

  stop(): void {
    this.window.removeEventListener("pointerover", this.onPointerOver, CAPTURE_PASSIVE)
    this.window.removeEventListener("pointerout", this.onPointerOut, CAPTURE_PASSIVE)
    this.window.removeEventListener("focusin", this.onFocusIn, CAPTURE_PASSIVE)
    this.window.removeEventListener("focusout", this.onFocusOut, CAPTURE_PASSIVE)
    this.window.removeEventListener("keydown", this.onKeyDown, true)
    this.hide()
    this.note?.clear()
    this.visibility?.unwatch()
    this.host?.remove()
    this.host = null
    this.button = null
    this.translateButton = null
    this.bar = null
    this.note = null
    this.visibility = null
  }

  private imageForFocus(target: EventTarget | null): HTMLImageElement | null {
    if (isImageElement(target)) return isButtonTarget(target) ? target : null
    const element = target as Element | null
    if (!element?.matches?.(ANCHOR_SELECTOR)) return null
    const images = element.getElementsByTagName("img")
    for (let index = 0; index < images.length && index < IMAGES_CHECKED_PER_ANCHOR; index++) {
      if (isButtonTarget(images[index]!)) return images[index]!
    }
    return null
  }

  private readonly onPointerOver = (event: Event) => {
    const target = deepTarget(event)
    if (target === this.host || (target && target === this.image)) {
      this.cancelHide()
      return
    }
    if (target === this.suppressed) return
    // A mouse held down is no pointing: a page could move another image under a pressed button to have the click.
    if ((event as PointerEvent).pointerType === "mouse" && (event as PointerEvent).buttons !== 0) return
    if (isImageElement(target) && isButtonTarget(target)) this.show(target, null)
    // The image was removed under the pointer: no pointerout comes from a detached node.
    else if (this.image && !this.image.isConnected) this.hide()
  }

  private readonly onPointerOut = (event: Event) => {
    const from = deepTarget(event)
    if (from === this.suppressed) this.suppressed = null
    if (!this.image) return
    if (from !== this.image && from !== this.host) return
    const to = (event as PointerEvent).relatedTarget
    if (to === this.image || to === this.host) return
    // Shown from the keyboard: the pointer passing by does not take it away.
    if (this.anchor && deepActiveElement(this.document) === this.anchor) return
    if (this.host && deepActiveElement(this.document) === this.host) return
    this.scheduleHide()
  }

  private readonly onFocusIn = (event: Event) => {
    const target = deepTarget(event)
    if (target === this.host) {
      this.cancelHide()
      return
    }
    if (target === this.suppressed) return
    this.suppressed = null
    const image = this.imageForFocus(target)
    if (image) this.show(image, target as HTMLElement)
    else if (this.anchor) this.hide()
  }

  private readonly onFocusOut = (event: Event) => {
    const from = deepTarget(event)
    const to = (event as FocusEvent).relatedTarget
    if (from === this.suppressed) this.suppressed = null
    if (!this.anchor) return
    // Moving between our two buttons leaves and enters the host.
    if ((from === this.anchor && to === this.host) || (from === this.host && (to === this.anchor || to === this.host))) return
    if (from === this.anchor || from === this.host) this.hide()
  }

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (!this.anchor || !this.button || this.button.hidden || event.defaultPrevented) return
    if (deepTarget(event) !== this.anchor) return
    if (event.key === "Tab" && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault()
      this.button.focus()
    } else if (event.key === "Escape") {
      this.suppressed = this.anchor
      this.hide()
    }
  }

  private readonly onButtonKeyDown = (event: KeyboardEvent) => {
    const anchor = this.anchor
    const onTranslate = event.currentTarget === this.translateButton
    const plainTab = event.key === "Tab" && !event.altKey && !event.ctrlKey && !event.metaKey
    // Tab order: the anchor, the button, Translate image, then what follows the anchor.
    if (plainTab && !event.shiftKey && !onTranslate && this.translateButton && !this.translateButton.hidden) {
      event.preventDefault()
      this.translateButton.focus()
    } else if (plainTab && event.shiftKey && onTranslate) {
      event.preventDefault()
      this.button?.focus()
    } else if (event.key === "Escape") {
      // Ours alone: the page must not also close its dialog or menu.
      event.preventDefault()
      event.stopPropagation()
      this.dismiss()
    } else if (event.key === "Tab" && anchor && !event.altKey && !event.ctrlKey && !event.metaKey) {
      if (event.shiftKey) {
        event.preventDefault()
        anchor.focus({ preventScroll: true })
      } else {
        // Focus goes back to the anchor and the browser's own Tab then moves on from there.
        this.suppressed = anchor
        anchor.focus({ preventScroll: true })
        this.hide()
      }
    }
  }

  private readonly onButtonClick = (event: MouseEvent) => {
    event.stopPropagation()
    // Only the user's own click or key press: a page script cannot reach into the closed root,
    // and the side panel opens only with a real gesture anyway.
    const { image, pointed, visibility } = this
    if (!event.isTrusted || !image || !pointed || !visibility) return
    const button = event.currentTarget as HTMLButtonElement
    // A key press (detail 0) has no point of its own; a pointer's click must land on the button.
    const point = event.detail > 0 ? { x: event.clientX, y: event.clientY } : null
    const refusal =
      !image.isConnected || imageAddressOf(image) !== pointed.address ? IMAGE_CHANGED_MESSAGE : visibility.allows(button, point) ? null : BUTTON_COVERED_MESSAGE
    if (refusal) {
      const box = button.getBoundingClientRect()
      this.dismiss()
      this.note?.say(refusal, box, this.viewport())
      return
    }
    this.onActivate({ url: pointed.url, action: button === this.translateButton ? "translate" : "analyse" })
    this.dismiss()
  }

  /** Hides the button and gives focus back to the anchor; neither brings it up again at once. */
  private dismiss() {
    const anchor = this.anchor
    if (anchor) {
      this.suppressed = anchor
      anchor.focus({ preventScroll: true })
    } else this.suppressed = this.image
    this.hide()
  }

  private readonly onViewportChange = () => {
    if (this.frame) return
    this.frame = this.window.requestAnimationFrame(() => {
      this.frame = 0
      this.position()
    })
  }

  private show(image: HTMLImageElement, anchor: HTMLElement | null) {
    this.cancelHide()
    const appears = image !== this.image
    this.image = image
    this.anchor = anchor
    this.ensureHost()
    this.track(true)
    if (appears) {
      this.pointed = { url: imageUrlOf(image), address: imageAddressOf(image) }
      this.note?.clear()
    }
    this.position()
    if (appears) this.visibility?.watch()
  }

  private hide() {
    this.cancelHide()
    this.image = null
    this.pointed = null
    this.anchor = null
    this.track(false)
    this.visibility?.unwatch()
    if (this.bar) this.bar.hidden = true
    if (this.button) this.button.hidden = true
    if (this.translateButton) this.translateButton.hidden = true
  }

  private scheduleHide() {
    this.cancelHide()
    this.hideTimer = setTimeout(() => this.hide(), HIDE_DELAY_MS)
  }

  private cancelHide() {
    clearTimeout(this.hideTimer)
    this.hideTimer = undefined
  }

  private track(on: boolean) {
    if (on === this.tracking) return
    this.tracking = on
    const method = on ? "addEventListener" : "removeEventListener"
    // Capturing on the window sees the scrolling of every scroll container, not just the page's.
    this.window[method]("scroll", this.onViewportChange, CAPTURE_PASSIVE)
    this.window[method]("resize", this.onViewportChange, CAPTURE_PASSIVE)
    if (!on && this.frame) {
      this.window.cancelAnimationFrame(this.frame)
      this.frame = 0
    }
  }

  /** The viewport's size: clientWidth leaves out the scroll bars; innerWidth covers documents without a layout box. */
  private viewport() {
    const root = this.document.documentElement
    return {
      width: Math.min(this.window.innerWidth, root.clientWidth || this.window.innerWidth),
      height: Math.min(this.window.innerHeight, root.clientHeight || this.window.innerHeight)
    }
  }

  private position() {
    const { image, button, bar } = this
    if (!image || !button || !bar) return
    if (!image.isConnected) {
      this.hide()
      return
    }
    if (!this.fullWidth) {
      button.classList.remove("compact")
      button.hidden = false
      bar.hidden = false
      this.fullWidth = Math.ceil(button.getBoundingClientRect().width)
    }
    const box = image.getBoundingClientRect()
    const placement = placeButton(box, this.viewport(), this.fullWidth)
    const translateX = placement && placeCompanion(box, placement)
    const translateButton = this.translateButton!
    // A hidden button loses focus to the document's end: hand it to the button, or back to the anchor.
    if (translateX == null && translateButton.matches(":focus")) (placement ? button : this.anchor)?.focus({ preventScroll: true })
    if (!placement) {
      if (this.anchor && deepActiveElement(this.document) === this.host) this.anchor.focus({ preventScroll: true })
      bar.hidden = true
      button.hidden = true
      translateButton.hidden = true
      return
    }
    button.classList.toggle("compact", placement.compact)
    button.hidden = false
    translateButton.hidden = translateX == null
    // The bar lays the buttons out from its left edge: Translate image's when it shows, else the button's.
    bar.style.transform = `translate(${translateX ?? placement.x}px, ${placement.y}px)`
    bar.hidden = false
  }

  private ensureHost() {
    if (this.host) {
      // The page may have replaced the markup the host was in, or put something after it, which would paint over it.
      const root = this.document.documentElement
      if (this.host.parentNode !== root || this.host.nextElementSibling) root.append(this.host)
      return
    }
    const parts = createButtonHost(this.document, { onClick: this.onButtonClick, onKeyDown: this.onButtonKeyDown })
    this.host = parts.host
    this.button = parts.button
    this.translateButton = parts.translateButton
    this.bar = parts.bar
    this.note = parts.note
    this.visibility = new VisibilityWatch(
      { host: parts.host, shadow: parts.shadow, hostStyle: HOST_STYLE },
      { bar: parts.bar, buttons: [parts.button, parts.translateButton] }
    )
  }
}
