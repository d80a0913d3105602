/** How analysis results read in words, wherever they are shown (side panel, history, engine check page). */
import { percent } from "~core/format"

import type { DetectedFace } from "~core/analysis/detections"

/** "happy", or with its score "happy (61%)". */
const withScore = (value: string, score: number | undefined, scores: boolean) => (scores && score !== undefined ? `${value} (${percent(score)})` : value)

/**
 * "confidence 92%, about 31 years, female, happy" (the attributes only when they were estimated);
 * with `scores`, how sure the estimate of gender and expression is: "female (74%), happy (61%)".
 */
export function describeFace(face: DetectedFace, { scores = false }: { scores?: boolean } = {}): string {
  const parts = [`confidence ${percent(face.score)}`]
  if (face.age !== undefined) parts.push(`about ${Math.round(face.age)} years`)
  if (face.gender) parts.push(withScore(face.gender, face.genderScore, scores))
  if (face.expression) parts.push(withScore(face.expression, face.expressionScore, scores))
  return parts.join(", ")
}
