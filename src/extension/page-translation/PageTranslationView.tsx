/**
 * What the page translation draws in its shadow root: each image's translation in a box the tracker keeps on the
 * image (OverlayTracker writes the boxes' places; React draws what is in them), and in the top frame the badge.
 */
import { useLayoutEffect, useRef, type CSSProperties } from "react"

import { TranslatedLayer } from "~ui/TranslatedLayer"

import type { PageImageTranslation, PageTranslationActionKind } from "../messaging/page-translation-messages"
import type { OverlayTracker } from "./overlay-tracker"
import { BADGE_LABEL, badgeButtons, badgeText, upgradeHref, UPGRADE_LABEL, type BadgeState } from "./texts"

export interface OverlayItem {
  url: string
  element: Element
  translation: PageImageTranslation
  /** The translation's name for assistive technology. */
  label: string
}

export interface ViewState {
  overlays: OverlayItem[]
  /** The translations (true) or the originals. */
  showing: boolean
  /** Top frame only. */
  badge: BadgeState | null
}

// Until the tracker has placed it, a frame shows nothing.
const FRAME_STYLE: CSSProperties = { position: "absolute", display: "none" }
const BOX_STYLE: CSSProperties = { position: "absolute", left: 0, top: 0, overflow: "hidden", transformOrigin: "50% 50%" }
const PICTURE_STYLE: CSSProperties = { position: "absolute" }

function ImageOverlay({ item, tracker }: { item: OverlayItem; tracker: OverlayTracker }) {
  const frame = useRef<HTMLDivElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const picture = useRef<HTMLDivElement>(null)
  // Placed before the browser paints it, and kept on its image from then on.
  useLayoutEffect(() => tracker.track(item.element, { frame: frame.current!, box: box.current!, picture: picture.current! }), [tracker, item.element])
  const { imageWidth, imageHeight, lines, language } = item.translation
  return (
    <div ref={frame} style={FRAME_STYLE} data-url={item.url}>
      <div ref={box} style={BOX_STYLE}>
        <div ref={picture} style={PICTURE_STYLE}>
          <TranslatedLayer width={imageWidth} height={imageHeight} lines={lines} lang={language} label={item.label} />
        </div>
      </div>
    </div>
  )
}

/** The badge's look: a stylesheet of the shadow root, which the page's styles cannot reach. */
export const BADGE_CSS = `
.badge {
  position: fixed;
  right: 16px;
  bottom: 16px;
  z-index: 2147483647;
  box-sizing: border-box;
  max-width: calc(100vw - 32px);
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  padding: 8px 8px 8px 12px;
  border-radius: 10px;
  background: #1F2937;
  color: #FFFFFF;
  font: 13px/1.4 Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  text-align: left;
  box-shadow: 0 4px 14px rgba(0, 0, 0, 0.35);
  pointer-events: auto;
}
.badge p { margin: 0; display: flex; align-items: center; gap: 8px; }
.mark { flex: none; white-space: nowrap; font-weight: 700; font-size: 12px; letter-spacing: -0.5px; padding: 1px 4px; border-radius: 4px; background: #3B82F6; }
.actions { display: flex; flex-wrap: wrap; gap: 6px; }
.badge button {
  all: initial;
  box-sizing: border-box;
  display: inline-flex;
  align-items: center;
  min-height: 28px;
  padding: 2px 10px;
  border: 1px solid rgba(255, 255, 255, 0.7);
  border-radius: 6px;
  color: #FFFFFF;
  font: inherit;
  font-weight: 600;
  white-space: nowrap;
  cursor: pointer;
}
.badge button:hover { background: #374151; }
.badge a { color: #93C5FD; font-weight: 600; text-decoration: underline; }
.badge button:focus-visible, .badge a:focus-visible { outline: 2px solid #FFFFFF; outline-offset: 2px; box-shadow: 0 0 0 5px #3B82F6; }
`

function Badge({ state, onAction }: { state: BadgeState; onAction: (action: PageTranslationActionKind) => void }) {
  const href = upgradeHref(state)
  const actions = useRef<HTMLDivElement>(null)
  const buttons = badgeButtons(state)
  // Stop goes once pressed: the keyboard's focus moves on to the next button rather than out of the page.
  const stopPressed = useRef(false)
  const hasStop = buttons.some((button) => button.action === "stop")
  useLayoutEffect(() => {
    if (!stopPressed.current || hasStop) return
    stopPressed.current = false
    actions.current?.querySelector("button")?.focus()
  }, [hasStop])
  const press = (action: PageTranslationActionKind) => {
    if (action === "stop") stopPressed.current = true
    onAction(action)
  }
  return (
    <div className="badge" role="group" aria-label={BADGE_LABEL} data-testid="page-translation-badge">
      <p role="status">
        <span className="mark" aria-hidden="true">
          文A
        </span>
        <span>{badgeText(state)}</span>
        {href && (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {UPGRADE_LABEL}
          </a>
        )}
      </p>
      <div className="actions" ref={actions}>
        {buttons.map(({ action, label }) => (
          // One element for Show originals and Show translations, so that the focus stays on it as its words change.
          <button key={action === "stop" ? "stop" : "toggle"} type="button" onClick={() => press(action)}>
            {label}
          </button>
        ))}
      </div>
    </div>
  )
}

export function PageTranslationView({ state, tracker, onAction }: { state: ViewState; tracker: OverlayTracker; onAction: (action: PageTranslationActionKind) => void }) {
  return (
    // The extension's words are English, whatever the page's language (the lines carry the translation's own).
    <div lang="en" dir="ltr">
      <div style={{ display: state.showing ? "block" : "none" }}>
        {state.overlays.map((item) => (
          <ImageOverlay key={item.url} item={item} tracker={tracker} />
        ))}
      </div>
      {state.badge && <Badge state={state.badge} onAction={onAction} />}
    </div>
  )
}
