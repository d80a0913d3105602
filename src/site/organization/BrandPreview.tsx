/**
 * The extension's side panel header as the organisation's members will see it (as src/panel/PanelHeader.tsx draws
 * it): its logo and display name, the product's name small under it, on the accent colour with white or black text.
 * A picture of the header, not the header: its buttons are words only, out of the keyboard's way.
 */
import { PRODUCT_NAME } from "~core/company"
import { textColorOn } from "~ui/contrast"
import { LogoMark } from "~ui/Logo"

export interface BrandPreviewProps {
  name: string
  /** #rrggbb, or null for the product's own white header. */
  accentColor: string | null
  /** The uploaded logo, or the file about to be uploaded; null shows the product's mark. */
  logoUrl: string | null
  /** The account line under the header's row. */
  accountLine: string
  caption: string
}

export function BrandPreview({ name, accentColor, logoUrl, accountLine, caption }: BrandPreviewProps) {
  const muted = accentColor ? "" : "text-gray-600"
  return (
    <figure className="space-y-2">
      <div className="mx-auto w-full max-w-[360px] overflow-hidden rounded-xl border border-gray-300 bg-gray-50 shadow-sm">
        <div
          data-testid="brand-preview-header"
          className={`space-y-1 border-b px-4 py-3 ${accentColor ? "border-black/10" : "border-gray-200 bg-white"}`}
          style={accentColor ? { backgroundColor: accentColor, color: textColorOn(accentColor) } : undefined}
        >
          <div className="flex items-center justify-between gap-2">
            <span className="flex min-w-0 flex-1 items-center gap-2">
              {logoUrl ? (
                <img src={logoUrl} alt="" className="h-8 w-8 shrink-0 rounded-md bg-white object-cover" data-testid="brand-preview-logo" />
              ) : (
                <LogoMark className="h-8 w-8 shrink-0" />
              )}
              <span className="min-w-0 leading-tight">
                <span className={`block truncate font-semibold ${accentColor ? "" : "text-brand-secondary"}`} data-testid="brand-preview-name">
                  {name}
                </span>
                <span className={`block truncate text-[11px] ${muted}`}>{PRODUCT_NAME}</span>
              </span>
            </span>
            {/* Smaller on a phone's narrow preview, so the name keeps room. */}
            <span aria-hidden="true" className={`flex shrink-0 items-center text-xs font-medium sm:gap-1 sm:text-sm ${accentColor ? "" : "text-blue-700"}`}>
              <span className="px-1.5 py-1 sm:px-2">Capture area</span>
              <span className="px-1.5 py-1 sm:px-2">Rescan</span>
            </span>
          </div>
          <p className={`truncate text-xs ${muted}`}>{accountLine}</p>
        </div>
        <div aria-hidden="true" className="space-y-2 p-4">
          <div className="h-3 w-2/3 rounded bg-gray-200" />
          <div className="h-16 rounded-lg bg-gray-200" />
          <div className="h-3 w-1/2 rounded bg-gray-200" />
        </div>
      </div>
      <figcaption className="text-center text-xs text-gray-500">{caption}</figcaption>
    </figure>
  )
}
