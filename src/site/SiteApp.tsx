import { QueryClientProvider } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { BrowserRouter, HashRouter, MemoryRouter, Route, Routes } from "react-router"

import { connectExtensionLink } from "~site-session/extension-link"
import { useSession } from "~site-session/session-store"
import { startSessionSync } from "~site-session/session-sync"
import { Toaster } from "~ui/toast"

import { SiteLayout } from "./layout/SiteLayout"
import { createQueryClient } from "./query-client"
import { siteRouteElements } from "./routes"

export type RouterKind = "browser" | "hash" | "memory"

export interface SiteAppProps {
  /** browser for the web build, hash for extension tab pages, memory for tests. */
  router: RouterKind
  /** Start location of the memory router. */
  initialPath?: string
}

function SiteRoutes() {
  return (
    <Routes>
      <Route element={<SiteLayout />}>{siteRouteElements()}</Route>
    </Routes>
  )
}

/** The companion site: one app, mounted by the web build and by the extension's tab page. */
export function SiteApp({ router, initialPath = "/" }: SiteAppProps) {
  const [queryClient] = useState(createQueryClient)
  const restoreSession = useSession((state) => state.restore)
  // Following other tabs and the API client first, so the refresh that restore starts is followed too.
  useEffect(() => startSessionSync(), [])
  useEffect(() => restoreSession(), [restoreSession])
  useEffect(() => connectExtensionLink(), [])

  return (
    <QueryClientProvider client={queryClient}>
      <Toaster />
      {router === "browser" && (
        <BrowserRouter>
          <SiteRoutes />
        </BrowserRouter>
      )}
      {router === "hash" && (
        <HashRouter>
          <SiteRoutes />
        </HashRouter>
      )}
      {router === "memory" && (
        <MemoryRouter initialEntries={[initialPath]}>
          <SiteRoutes />
        </MemoryRouter>
      )}
    </QueryClientProvider>
  )
}
