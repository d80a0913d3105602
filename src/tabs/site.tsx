import { SiteApp } from "~site/SiteApp"

import "~site/styles"

/** The companion site inside the extension (tabs/site.html), with hash routing. */
function SiteTab() {
  return <SiteApp router="hash" />
}

export default SiteTab
