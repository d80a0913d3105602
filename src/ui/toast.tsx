import type { CSSProperties } from "react"
import { toast as sonner, Toaster as SonnerToaster } from "sonner"

import { SECOND_MS } from "~core/time"

export const TOAST_ERROR_DURATION_MS = 4 * SECOND_MS

export const TOAST_DEFAULT_DURATION_MS = 4 * SECOND_MS

export const TOAST_SUCCESS_DURATION_MS = 2 * SECOND_MS

export const TOAST_MAX_VISIBLE = 20

/** Toasts last 2 s for success and 4 s for errors and others; a loading toast stays until dismissed. */
export const toast = {
  success: (message: string) => sonner.success(message, { duration: TOAST_SUCCESS_DURATION_MS }),
  error: (message: string) => sonner.error(message, { duration: TOAST_ERROR_DURATION_MS }),
  info: (message: string) => sonner(message, { duration: TOAST_DEFAULT_DURATION_MS }),
  loading: (message: string) => sonner.loading(message, { duration: Infinity }),
  dismiss: (id?: string | number) => sonner.dismiss(id)
}

/**
 * sonner's rich colours put its text at about 4.3:1 on their tinted backgrounds (axe flagged the success toast); the
 * same hues, darker, pass AA (at least 5.5:1). The variables are sonner's own, set on its toaster.
 */
export const TOAST_TEXT_COLOURS = {
  "--success-text": "hsl(140, 100%, 22%)",
  "--error-text": "hsl(360, 100%, 38%)",
  "--info-text": "hsl(210, 92%, 33%)",
  "--warning-text": "hsl(31, 92%, 28%)"
} as CSSProperties

/** Bottom-centre, at most 20 at once. */
export function Toaster() {
  return <SonnerToaster position="bottom-center" visibleToasts={TOAST_MAX_VISIBLE} richColors closeButton style={TOAST_TEXT_COLOURS} />
}
