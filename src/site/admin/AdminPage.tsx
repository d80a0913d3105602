import { useQuery, type UseQueryResult } from "@tanstack/react-query"
import type { ComponentType, SVGProps } from "react"
import { Link } from "react-router"

import { useSession } from "~site-session/session-store"
import { PRODUCT_NAME } from "~core/company"
import { Notice } from "~ui/Notice"
import { ChartColumn, CreditCard, FileText, KeyRound, MessageSquareText, Shield, Users } from "~ui/icons"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import type { AdminOverview } from "~core/admin/admin-overview"
import { PageTitle } from "~site/shared/PageTitle"
import { isTwoStepRequired } from "~site/shared/two-step-required"

import { QUERY_RETRY } from "../query-client"
import { adminKeys, fetchOverview } from "./admin-requests"
import { TwoStepRequired } from "./TwoStepRequired"

interface AdminLink {
  to: string
  title: string
  description: string
  Icon: ComponentType<SVGProps<SVGSVGElement>>
}

/** The seven admin areas, each a page of its own. */
export const ADMIN_LINKS: readonly AdminLink[] = [
  { to: "/admin/password-policy", title: "Password Policy", description: "Rules, messages and sign-in protection.", Icon: KeyRound },
  { to: "/admin/feedback", title: "Feedback", description: "Read, answer and sort what users send.", Icon: MessageSquareText },
  { to: "/admin/users", title: "Users", description: "Accounts, roles and plans.", Icon: Users },
  { to: "/admin/analytics", title: "Analytics", description: "Usage of the extension and the site.", Icon: ChartColumn },
  { to: "/admin/content", title: "Content", description: "Blog posts: write, preview and publish.", Icon: FileText },
  { to: "/admin/billing", title: "Billing", description: "Subscriptions and payments.", Icon: CreditCard },
  { to: "/admin/security", title: "Security", description: "Sessions and security events.", Icon: Shield }
]

const number = new Intl.NumberFormat("en-US")

export function AccessDenied() {
  return (
    <section className="mx-auto max-w-lg px-4 py-20 text-center">
      <PageTitle title="Access Denied" />
      <Shield aria-hidden="true" className="mx-auto h-12 w-12 text-red-500" />
      <h1 className="mt-4 text-2xl font-bold">Access Denied</h1>
      <p className="mt-2 text-gray-600">You don&apos;t have permission to access the admin panel.</p>
      <Link to="/dashboard" className={`mt-6 ${buttonStyles.primary}`}>
        Back to Dashboard
      </Link>
    </section>
  )
}

function QuickOverview({ overview }: { overview: UseQueryResult<AdminOverview> }) {
  if (overview.isPending) return <Spinner label="Loading the overview" />
  if (overview.isError) return <Notice>Failed to load the overview. {overview.error.message}</Notice>
  const { users, policies, violations, billing, health } = overview.data
  const figures = [
    { label: "Users", to: "/admin/users", value: number.format(users.total), note: `${number.format(users.newLast30Days)} new in 30 days` },
    { label: "Policies", to: "/admin/password-policy", value: number.format(policies.enabledRules), note: `enabled password rules, ${policies.customRules} custom` },
    { label: "Violations", to: "/admin/security", value: number.format(violations.last30Days), note: "refused passwords in 30 days" },
    {
      label: "Subscribers",
      to: "/admin/billing",
      value: number.format(billing.subscribers.pro + billing.subscribers.enterprise),
      note: `Pro ${number.format(billing.subscribers.pro)}, Enterprise ${number.format(billing.subscribers.enterprise)}; ${number.format(billing.trialing)} on trial`
    },
    {
      label: "MRR",
      to: "/admin/billing",
      value: `$${billing.monthlyRecurringRevenue.toLocaleString("en-US", { maximumFractionDigits: 2 })}`,
      note: `monthly recurring revenue${billing.pastDue ? `, ${number.format(billing.pastDue)} payment failed` : ""}`
    },
    {
      label: "Health",
      to: "/status",
      value: `${health.percent}%`,
      note: Object.entries(health.checks)
        .map(([name, check]) => `${name} ${check.ok ? "ok" : "failing"}`)
        .join(", ")
    }
  ]
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {figures.map(({ label, to, value, note }) => (
        // The whole card is the link's target (its ::after covers the card); the link's name is the figure's label.
        <div key={label} className="relative rounded-2xl border border-gray-200 bg-white p-5 shadow-sm transition focus-within:ring-2 focus-within:ring-brand-primary hover:border-brand-primary hover:shadow">
          <dt className="text-sm text-gray-500">
            <Link to={to} className="after:absolute after:inset-0 after:rounded-2xl after:content-[''] hover:underline focus:outline-none">
              {label}
            </Link>
          </dt>
          <dd className="mt-1 text-2xl font-semibold" data-testid={`overview-${label.toLowerCase()}`}>
            {value}
          </dd>
          <dd className="mt-1 text-xs text-gray-500">{note}</dd>
        </div>
      ))}
    </dl>
  )
}

export default function AdminPage() {
  const user = useSession((state) => state.user)
  if (!user) return <Spinner />
  if (user.role !== "admin") return <AccessDenied />
  return <AdminDashboard />
}

function AdminDashboard() {
  const overview = useQuery({
    queryKey: adminKeys.overview,
    queryFn: fetchOverview,
    staleTime: 0,
    // Asking again does not turn two-step sign-in on.
    retry: (failures, failure) => !isTwoStepRequired(failure) && failures < QUERY_RETRY
  })
  // Every admin page would be refused alike (ADMIN_MFA=required): the panel says so once, with the way to turn it on.
  if (isTwoStepRequired(overview.error)) return <TwoStepRequired message={overview.error.message} />
  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title="Admin Dashboard" />
      <header>
        <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
        <p className="mt-1 text-gray-600">Manage the password policy, user feedback and the rest of {PRODUCT_NAME}.</p>
      </header>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {ADMIN_LINKS.map(({ to, title, description, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full items-start gap-4 rounded-2xl border border-gray-200 bg-white p-5 shadow-sm transition hover:border-brand-primary hover:shadow focus-ring"
            >
              <Icon aria-hidden="true" className="h-6 w-6 shrink-0 text-brand-primary" />
              <span>
                <span className="block font-semibold">{title}</span>
                <span className="mt-1 block text-sm text-gray-600">{description}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <section aria-labelledby="overview-heading">
        <h2 id="overview-heading" className="mb-4 text-xl font-semibold">
          Quick Overview
        </h2>
        <QuickOverview overview={overview} />
      </section>
    </div>
  )
}
