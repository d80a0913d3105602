/**
 * The organisation's identity in the side panel's header and the popup, in place of the product's logo: its logo
 * (or the product's mark until one is uploaded and kept) and its display name, with the product's name small under
 * it. On the accent colour the whole block takes the text colour chosen for it (white or black by luminance).
 */
import type { CSSProperties } from "react"

import { PRODUCT_NAME } from "~core/company"
import { LogoMark } from "~ui/Logo"

import type { Brand } from "./organization-brand"

/** The accent colour as a surface's background, with its readable text colour; none for a brand without one. */
export function brandSurfaceStyle(brand: Brand | null): CSSProperties | undefined {
  return brand?.accentColor && brand.textColor ? { backgroundColor: brand.accentColor, color: brand.textColor } : undefined
}

/** Hover for a text button on the brand's surface: darker on light colours, lighter on dark ones. */
export function onBrandHoverClass(brand: Brand): string {
  return brand.textColor === "#ffffff" ? "hover:bg-white/20" : "hover:bg-black/10"
}

export function BrandIdentity({ brand }: { brand: Brand }) {
  const onAccent = Boolean(brand.accentColor)
  return (
    <span className="flex min-w-0 flex-1 items-center gap-2" title={`${brand.name} · ${PRODUCT_NAME}`} data-testid="brand">
      {brand.logo ? (
        <img src={brand.logo} alt={brand.name} width={32} height={32} className="h-8 w-8 shrink-0 rounded-md bg-white object-cover" data-testid="brand-logo" />
      ) : (
        <LogoMark className="h-8 w-8 shrink-0" />
      )}
      <span className="min-w-0 leading-tight">
        <span className={`block truncate font-semibold ${onAccent ? "" : "text-brand-secondary"}`} data-testid="brand-name">
          {brand.name}
        </span>
        <span className={`block truncate text-[11px] ${onAccent ? "" : "text-gray-600"}`}>{PRODUCT_NAME}</span>
      </span>
    </span>
  )
}
