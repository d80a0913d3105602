/**
 * The reference's examples of /api/v1: a request and its answer's `data` for each endpoint, shown by /api/docs and
 * carried by /api/openapi.json for client generators (server/openapi/openapi.test.ts checks each against the schema
 * the document gives it). Typed by the very schemas the routes declare, so a renamed field fails the type check too.
 */
import type * as z from "zod"

import type { apiUsageSchema } from "~core/api-keys"
import type { translateAnswerSchema, translateRequestSchema } from "~core/analysis/translate"
import type { vqaAnswerSchema, vqaAskRequestSchema } from "~core/analysis/vqa"

import type { RouteExample } from "../openapi/route-docs"
import type { v1FacesAnswerSchema, v1FacesRequestSchema, v1ObjectsAnswerSchema, v1ObjectsRequestSchema, v1OcrAnswerSchema, v1OcrRequestSchema } from "./local-vision-schemas"

const example = <Request extends z.ZodType, Answer extends z.ZodType>(request: z.input<Request>, data: z.output<Answer>): RouteExample => ({ request, data })

const usage = { used: 42, limit: 1000, resetsAt: "2026-12-01T00:00:00.000Z" }
const box = (x: number, y: number, width: number, height: number) => ({ x, y, width, height })

export const V1_OCR_EXAMPLE = example<typeof v1OcrRequestSchema, typeof v1OcrAnswerSchema>(
  { image: { url: "https://example.com/letter.png" }, languages: ["deu", "eng"] },
  {
    text: "Sehr geehrte Frau Weber,\nvielen Dank für Ihre Nachricht.",
    confidence: 0.93,
    language: "deu+eng",
    lines: [
      { text: "Sehr geehrte Frau Weber,", confidence: 0.95, bbox: box(120, 88, 610, 42) },
      { text: "vielen Dank für Ihre Nachricht.", confidence: 0.91, bbox: box(120, 150, 742, 42) }
    ],
    imageWidth: 1240,
    imageHeight: 1754
  }
)

export const V1_FACES_EXAMPLE = example<typeof v1FacesRequestSchema, typeof v1FacesAnswerSchema>(
  { image: { url: "https://example.com/team.jpg" }, attributes: true },
  {
    faces: [
      { box: box(412, 180, 164, 201), score: 0.98, age: 34, gender: "female", genderScore: 0.96, expression: "happy", expressionScore: 0.88 },
      { box: box(903, 212, 151, 187), score: 0.95, age: 41, gender: "male", genderScore: 0.91, expression: "neutral", expressionScore: 0.79 }
    ],
    detector: "ssd",
    imageWidth: 1920,
    imageHeight: 1280
  }
)

export const V1_OBJECTS_EXAMPLE = example<typeof v1ObjectsRequestSchema, typeof v1ObjectsAnswerSchema>(
  { image: { url: "https://example.com/street.jpg" } },
  {
    objects: [
      { label: "person", score: 0.91, box: box(310, 402, 188, 520) },
      { label: "bicycle", score: 0.84, box: box(280, 690, 260, 250) }
    ],
    imageWidth: 1600,
    imageHeight: 1067
  }
)

export const V1_ASK_EXAMPLE = example<typeof vqaAskRequestSchema, typeof vqaAnswerSchema>(
  { image: { url: "https://example.com/chart.png" }, question: "What does this chart show?" },
  { answer: "Monthly sales for 2025: they rise from January to a peak in July, then fall back by December.", model: "gpt-4o-mini", usage }
)

export const V1_TRANSLATE_EXAMPLE = example<typeof translateRequestSchema, typeof translateAnswerSchema>(
  { text: "Guten Morgen", targetLanguage: "en" },
  { translation: "Good morning", targetLanguage: "en", sourceLanguage: "de", usage }
)

export const V1_USAGE_EXAMPLE: RouteExample = {
  data: {
    month: "2026-11",
    quota: { used: 42, limit: 1000 },
    byEndpoint: { ocr: 120, faces: 8, objects: 15, ask: 30, translate: 12 },
    byKey: [{ id: "5f0c8a52-3d1e-4b8e-9a61-0c2f1d7e4b90", prefix: "iqa_3k9XbQ2m", name: "invoice scanner", calls: 185 }]
  } satisfies z.output<typeof apiUsageSchema>
}
