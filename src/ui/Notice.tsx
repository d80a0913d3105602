/** The info, error or success box of a page or a form, announced to screen readers, with an optional list of details. */
import type { HTMLAttributes, ReactNode } from "react"

export type NoticeTone = "error" | "success" | "info"

const TONE_STYLES: Record<NoticeTone, string> = {
  error: "border-red-200 bg-red-50 text-red-800",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
  info: "border-blue-200 bg-blue-50 text-blue-800"
}

interface NoticeProps extends Omit<HTMLAttributes<HTMLDivElement>, "role" | "className"> {
  tone?: NoticeTone
  children: ReactNode
  /** The server's list of problems (VALIDATION_FAILED details), one bullet each under the message. */
  details?: readonly string[]
  /** "roomy" for a page-level notice among cards (the admin policy page); forms use the compact default. */
  spacing?: "compact" | "roomy"
}

/** An error is an alert (read out at once), other tones a status (read out when the reader is idle). */
export function Notice({ tone = "error", children, details, spacing = "compact", ...box }: NoticeProps) {
  const padding = spacing === "roomy" ? "px-4 py-3" : "px-3 py-2"
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-lg border ${padding} text-sm ${TONE_STYLES[tone]}`} {...box}>
      {children}
      {details && details.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {details.map((detail) => (
            <li key={detail}>{detail}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
