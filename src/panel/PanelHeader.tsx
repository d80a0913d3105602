/** The side panel's sticky header: the logo, the Capture area and Rescan buttons, and the account line. */
import type { AccountState } from "~extension/account"
import { AccountLine } from "~extension/AccountLine"
import { Logo } from "~ui/Logo"

export interface PanelHeaderProps {
  account: AccountState
  /** The page's overlay is up: Capture area waits for it to end. */
  capturing: boolean
  onCapture: () => void
  onRescan: () => void
}

export function PanelHeader({ account, capturing, onCapture, onRescan }: PanelHeaderProps) {
  return (
    <header className="sticky-top-bar sticky top-0 z-10 space-y-1 border-b border-gray-200 bg-white px-4 py-3">
      <div className="flex items-center justify-between">
        <Logo />
        <div className="flex items-center gap-1">
          <button
            type="button"
            onClick={onCapture}
            disabled={capturing}
            className="rounded-md px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-ring disabled:opacity-60"
          >
            Capture area
          </button>
          <button type="button" onClick={onRescan} className="rounded-md px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-ring">
            Rescan
          </button>
        </div>
      </div>
      <AccountLine account={account} />
    </header>
  )
}
