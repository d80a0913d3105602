/**
 * The side panel's sticky header: the logo, the Capture area and Rescan buttons, and the account line. For a member
 * of an organisation, its logo and name take the product's place and its accent colour the header's background,
 * with white or black text, whichever reads better on it.
 */
import type { AccountState } from "~extension/account/account"
import { AccountLine } from "~extension/account/AccountLine"
import { BrandIdentity, brandSurfaceStyle, onBrandHoverClass } from "~extension/account/BrandIdentity"
import type { Brand } from "~extension/account/organization-brand"
import { Logo } from "~ui/Logo"

export interface PanelHeaderProps {
  account: AccountState
  /** The organisation's brand (useBrand); null for an account in none, or signed out. */
  brand?: Brand | null
  /** The page's overlay is up: Capture area waits for it to end. */
  capturing: boolean
  onCapture: () => void
  onRescan: () => void
}

export function PanelHeader({ account, brand = null, capturing, onCapture, onRescan }: PanelHeaderProps) {
  const surface = brandSurfaceStyle(brand)
  const action = `rounded-md px-2 py-1 text-sm font-medium focus-ring ${
    surface && brand ? `${onBrandHoverClass(brand)} focus-visible:outline-current` : "text-blue-700 hover:bg-blue-50"
  }`
  return (
    <header
      className={`sticky-top-bar sticky top-0 z-10 space-y-1 border-b px-4 py-3 ${surface ? "border-black/10" : "border-gray-200 bg-white"}`}
      style={surface}
      data-testid="panel-header"
    >
      <div className="flex items-center justify-between gap-2">
        {brand ? <BrandIdentity brand={brand} /> : <Logo />}
        <div className="flex shrink-0 items-center gap-1">
          <button type="button" onClick={onCapture} disabled={capturing} className={`${action} disabled:opacity-60`}>
            Capture area
          </button>
          <button type="button" onClick={onRescan} className={action}>
            Rescan
          </button>
        </div>
      </div>
      <AccountLine account={account} onAccent={Boolean(surface)} />
    </header>
  )
}
