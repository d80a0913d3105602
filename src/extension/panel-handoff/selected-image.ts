/**
 * The image the user picked with the "Analyse image" menu entry or the on-image button. The service worker
 * stores it as it opens the side panel; the panel reads it when it starts and follows later picks.
 */
import * as z from "zod"

import { sessionItem } from "../storage/storage-item"

const selectedImageSchema = z.object({
  url: z.string(),
  tabId: z.number().int(),
  pageUrl: z.string().optional(),
  /** "translate": *Translate image*: read its text and show it translated over the image. */
  action: z.enum(["analyse", "translate"]).optional(),
  /** Milliseconds since the epoch: a pick older than the panel's start is not shown again. */
  selectedAt: z.number()
})

export type SelectedImage = z.infer<typeof selectedImageSchema>

export const selectedImageItem = sessionItem("selectedImage", selectedImageSchema)
