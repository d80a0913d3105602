import { StrictMode } from "react"
import { createRoot } from "react-dom/client"

import { firebaseGooglePopup } from "~site-session/firebase-client"
import { provideGooglePopup } from "~site-session/google-popup"
import { SiteApp } from "~site/SiteApp"
import "~ui/global-styles"

provideGooglePopup(firebaseGooglePopup)

const container = document.getElementById("root")
if (!container) throw new Error("The page has no #root element")

createRoot(container).render(
  <StrictMode>
    <SiteApp router="browser" />
  </StrictMode>
)
