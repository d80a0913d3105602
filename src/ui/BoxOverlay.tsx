import type { Box } from "~analysis/engine"

export type LabelledBox = Box & { label?: string }

export type BoxTone = "text" | "face" | "object"

const STROKES: Record<BoxTone, string> = { text: "#10b981", face: "#f59e0b", object: "#3b82f6" }

/**
 * Boxes drawn over an image, in the image's own pixels (the SVG's viewBox), so they follow any display size.
 * Place it in a `relative` container right after the image.
 */
export function BoxOverlay({ boxes, width, height, tone }: { boxes: readonly LabelledBox[]; width: number; height: number; tone: BoxTone }) {
  if (!width || !height || boxes.length === 0) return null
  const stroke = STROKES[tone]
  const strokeWidth = Math.max(1, Math.round(Math.max(width, height) / 300))
  return (
    <svg className="pointer-events-none absolute inset-0 h-full w-full" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" data-testid="box-overlay">
      {boxes.map((box, index) => (
        <g key={index}>
          <rect x={box.x} y={box.y} width={box.width} height={box.height} fill="none" stroke={stroke} strokeWidth={strokeWidth} />
          {box.label && (
            <text x={box.x + strokeWidth} y={Math.max(box.y - strokeWidth * 2, strokeWidth * 8)} fill={stroke} fontSize={strokeWidth * 9} fontFamily="Inter, sans-serif">
              {box.label}
            </text>
          )}
        </g>
      ))}
    </svg>
  )
}
