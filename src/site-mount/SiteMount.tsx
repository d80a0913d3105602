import { useEffect, useState } from "react"

import { getApiOrigin } from "~extension/site-link/api-origin"
import { configureApi } from "~site-session/site-client"
import { SiteApp } from "~site/SiteApp"
import { Spinner } from "~ui/Spinner"

import "~ui/global-styles"

/**
 * The companion site inside the extension (tabs/site.html), with hash routing, talking to the configured API.
 * Vite builds it into the extension (scripts/site-mount-build.mjs), not Plasmo: Plasmo's bundler makes no shared bundles,
 * so each of the site's lazily loaded pages carried its own copy of React and the rest, 30 MB of the package.
 */
export function SiteMount() {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    void getApiOrigin().then((baseUrl) => {
      configureApi({ baseUrl })
      setReady(true)
    })
  }, [])
  return ready ? <SiteApp router="hash" /> : <Spinner />
}
