import { useEffect, useState } from "react"

import { fetchServiceStatus } from "~api/status"
import type { StatusReport } from "~core/api"
import { getApiOrigin } from "~extension/api-origin"
import { Logo } from "~ui/Logo"
import { buttonStyles } from "~ui/styles"

import "~site/styles"

type ServiceState = { kind: "checking" } | { kind: "online"; report: StatusReport } | { kind: "offline"; origin: string }

function Popup() {
  const [service, setService] = useState<ServiceState>({ kind: "checking" })

  useEffect(() => {
    const controller = new AbortController()
    void (async () => {
      const origin = await getApiOrigin()
      const report = await fetchServiceStatus(origin, controller.signal)
      if (!controller.signal.aborted) setService(report ? { kind: "online", report } : { kind: "offline", origin })
    })()
    return () => controller.abort()
  }, [])

  const openSidePanel = async () => {
    const window = await chrome.windows.getCurrent()
    if (window.id !== undefined) await chrome.sidePanel.open({ windowId: window.id })
  }

  const openSite = () => void chrome.tabs.create({ url: chrome.runtime.getURL("tabs/site.html") })

  return (
    <div className="w-80 space-y-4 bg-white p-4 font-sans text-brand-secondary">
      <Logo />
      <p className="text-sm text-gray-600" role="status">
        {service.kind === "checking" && "Checking the service…"}
        {service.kind === "online" && `Service online · version ${service.report.version}`}
        {service.kind === "offline" && `Service unreachable at ${service.origin}`}
      </p>
      <div className="flex flex-col gap-2">
        <button type="button" className={buttonStyles.primary} onClick={() => void openSidePanel()}>
          Open side panel
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={openSite}>
          Open Image Query AI website
        </button>
      </div>
    </div>
  )
}

export default Popup
