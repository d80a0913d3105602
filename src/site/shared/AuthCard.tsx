import type { ReactNode } from "react"

import { LogoMark } from "~ui/Logo"

import { PageTitle } from "./PageTitle"

/** The centred card every sign-in, sign-up and link-landing page sits in. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="flex justify-center bg-gradient-to-b from-white to-blue-50 px-4 py-12 sm:py-16">
      <PageTitle title={title} />
      <div className="w-full max-w-md">
        <div className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
          <div className="mb-6 flex flex-col items-center text-center">
            <LogoMark className="h-10 w-10" />
            <h1 className="mt-4 text-2xl font-bold tracking-tight">{title}</h1>
            {subtitle && <p className="mt-2 text-sm text-gray-600">{subtitle}</p>}
          </div>
          {children}
        </div>
        {footer && <div className="mt-6 text-center text-sm text-gray-600">{footer}</div>}
      </div>
    </section>
  )
}
