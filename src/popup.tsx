/** The toolbar popup: whether the service answers, the account line, and the ways to the side panel and the site. */
import { useEffect, useState } from "react"

import { fetchServiceStatus } from "~http/status"
import type { StatusReport } from "~core/api-answer"
import { getApiOrigin } from "~extension/site-link/api-origin"
import { openSignIn, openSitePage } from "~extension/account/account"
import { AccountCard } from "~extension/account/AccountLine"
import { BrandIdentity, brandSurfaceStyle } from "~extension/account/BrandIdentity"
import { endExtensionSession, extensionApi } from "~extension/account/extension-session"
import { useAccount } from "~extension/account/use-account"
import { useBrand } from "~extension/account/use-brand"
import { SIGN_OUT_REQUEST, type SignOutRequest } from "~extension/messaging/messages"
import { TRANSLATE_PAGE_LABEL, translateActiveTabFromPopup } from "~extension/panel-handoff/page-translation-request"
import { firefoxSidebar, openPanel } from "~extension/browser/side-panel"
import { Logo } from "~ui/Logo"
import { buttonStyles } from "~ui/styles"

import "~ui/global-styles"
import "~ui/document-language"

type ServiceState = { kind: "checking" } | { kind: "online"; report: StatusReport } | { kind: "offline"; origin: string }

function Popup() {
  const [service, setService] = useState<ServiceState>({ kind: "checking" })
  const { account, reloadAccount } = useAccount()
  const brand = useBrand()

  useEffect(() => {
    const controller = new AbortController()
    void (async () => {
      const origin = await getApiOrigin()
      const report = await fetchServiceStatus(extensionApi(), controller.signal)
      if (!controller.signal.aborted) setService(report ? { kind: "online", report } : { kind: "offline", origin })
    })()
    return () => controller.abort()
  }, [])

  const openSidePanel = async () => {
    // Firefox's sidebar opens in the popup's window, and only inside the click: nothing may be awaited before it.
    if (firefoxSidebar()) return openPanel({ windowId: chrome.windows.WINDOW_ID_CURRENT })
    const window = await chrome.windows.getCurrent()
    if (window.id !== undefined) await openPanel({ windowId: window.id })
  }

  // The service worker ends the session and signs the site out too (its open pages now, later ones when opened).
  const signOut = async () => {
    const request: SignOutRequest = { type: SIGN_OUT_REQUEST }
    const answer = (await chrome.runtime.sendMessage(request)) as { success: boolean } | undefined
    if (!answer?.success) await endExtensionSession()
    reloadAccount()
  }

  return (
    <div className="w-80 space-y-4 bg-white p-4 font-sans text-brand-secondary">
      {brand ? (
        // An organisation's members see its brand, on its accent colour as a band across the top.
        <div className={brandSurfaceStyle(brand) ? "-mx-4 -mt-4 flex px-4 py-3" : "flex"} style={brandSurfaceStyle(brand)} data-testid="popup-brand">
          <BrandIdentity brand={brand} />
        </div>
      ) : (
        <Logo />
      )}
      <p className="text-sm text-gray-600" role="status">
        {service.kind === "checking" && "Checking the service…"}
        {service.kind === "online" && `Service online · version ${service.report.version}`}
        {service.kind === "offline" && `Service unreachable at ${service.origin}`}
      </p>
      <AccountCard account={account} />
      <div className="flex flex-col gap-2">
        <button type="button" className={buttonStyles.primary} onClick={() => void openSidePanel()}>
          Open side panel
        </button>
        {/* Opens the panel with the mode on for this window's tab. */}
        <button type="button" className={buttonStyles.secondary} onClick={() => void translateActiveTabFromPopup()}>
          {TRANSLATE_PAGE_LABEL}
        </button>
        {account.kind === "signedIn" && (
          <>
            <button type="button" className={buttonStyles.secondary} onClick={() => void openSitePage("/dashboard")}>
              Dashboard
            </button>
            <button type="button" className={buttonStyles.ghost} onClick={() => void signOut()}>
              Sign out
            </button>
          </>
        )}
        {account.kind === "signedOut" && (
          <button type="button" className={buttonStyles.secondary} onClick={openSignIn}>
            Sign in
          </button>
        )}
      </div>
    </div>
  )
}

export default Popup
