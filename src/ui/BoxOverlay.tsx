import { useId } from "react"

/** A rectangle in the image's own pixels, with the tag drawn on it (the design system draws boxes, whoever found them). */
export interface LabelledBox {
  x: number
  y: number
  width: number
  height: number
  label?: string
}

export type BoxTone = "text" | "face" | "object"

const STROKES: Record<BoxTone, string> = { text: "#10b981", face: "#f59e0b", object: "#3b82f6" }
/** Text on a tag filled with the tone's colour: white where it reads well, dark on amber. */
const TAG_TEXT: Record<BoxTone, string> = { text: "#ffffff", face: "#111827", object: "#ffffff" }

/**
 * Boxes drawn over an image, in the image's own pixels (the SVG's viewBox), so they follow any display size.
 * Place it in a `relative` container right after the image. Labels are drawn in the tone's colour, or with
 * `labelStyle="tag"` on a filled tag, which stays legible over busy or dark photos.
 */
export function BoxOverlay({
  boxes,
  width,
  height,
  tone,
  labelStyle = "text"
}: {
  boxes: readonly LabelledBox[]
  width: number
  height: number
  tone: BoxTone
  labelStyle?: "text" | "tag"
}) {
  const tagId = useId()
  if (!width || !height || boxes.length === 0) return null
  const stroke = STROKES[tone]
  const strokeWidth = Math.max(1, Math.round(Math.max(width, height) / 300))
  const tagged = labelStyle === "tag"
  return (
    <svg className="pointer-events-none absolute inset-0 h-full w-full" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" data-testid="box-overlay">
      {tagged && (
        <defs>
          {/* The tag is the label's own bounding box (its no-break spaces pad it), flooded with the tone. */}
          <filter id={tagId} x="0" y="0" width="1" height="1">
            <feFlood floodColor={stroke} />
            <feComposite in="SourceGraphic" operator="over" />
          </filter>
        </defs>
      )}
      {boxes.map((box, index) => (
        <g key={index}>
          <rect x={box.x} y={box.y} width={box.width} height={box.height} fill="none" stroke={stroke} strokeWidth={strokeWidth} />
          {box.label && (
            <text
              x={tagged ? box.x - strokeWidth / 2 : box.x + strokeWidth}
              y={Math.max(box.y - strokeWidth * 2, strokeWidth * 8)}
              fill={tagged ? TAG_TEXT[tone] : stroke}
              filter={tagged ? `url(#${tagId})` : undefined}
              fontSize={strokeWidth * 9}
              fontFamily="Inter, sans-serif">
              {tagged ? `\u00a0${box.label}\u00a0` : box.label}
            </text>
          )}
        </g>
      ))}
    </svg>
  )
}
