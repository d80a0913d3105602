import { Suspense } from "react"
import { Outlet } from "react-router"

import { Spinner } from "~ui/Spinner"

import { Footer } from "./Footer"
import { Header } from "./Header"
import { ScrollManager } from "./ScrollManager"

export function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-gray-50 font-sans text-brand-secondary antialiased">
      <a
        href="#main"
        onClick={(event) => {
          // With hash routing "#main" would be read as a route; move focus instead.
          event.preventDefault()
          document.getElementById("main")?.focus()
        }}
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <ScrollManager />
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  )
}
