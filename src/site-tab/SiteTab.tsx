import { useEffect, useState } from "react"

import { configureApi } from "~site-session/site-api"
import { getApiOrigin } from "~extension/api-origin"
import { SiteApp } from "~site/SiteApp"
import { Spinner } from "~ui/Spinner"

import "~ui/global-styles"
import "~ui/document-language"

/** The companion site inside the extension (tabs/site.html), with hash routing, talking to the configured API. */
function SiteTab() {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    void getApiOrigin().then((baseUrl) => {
      configureApi({ baseUrl })
      setReady(true)
    })
  }, [])
  return ready ? <SiteApp router="hash" /> : <Spinner />
}

export default SiteTab
