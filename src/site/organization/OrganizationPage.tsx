/**
 * /organization (signed in): the account's organisation — its pool of requests this month, its members, and for an
 * owner or admin the invitations and the brand with a preview of the side panel header; the two-step sign-in rule,
 * which the owner sets; for an owner or admin the e-mail domains, which the owner adds and verifies; the owner also
 * transfers ownership or deletes it. An account in none is offered to create one (Enterprise) or told what teams are.
 */
import type { ComponentType, ReactNode } from "react"

import { managesMembers, type Organization } from "~core/organizations"
import { planIdOfUser } from "~core/user"
import { useSession } from "~site-session/session-store"
import { LoadFailure } from "~site/shared/LoadFailure"
import { ROLE_LABELS } from "~site/shared/membership"
import { useOrganization } from "~site/shared/organization-query"
import { Spinner } from "~ui/Spinner"
import { useSubscription } from "~site/shared/billing/billing-requests"
import { effectivePlanId } from "~site/shared/billing/subscription-view"
import { PageTitle } from "~site/shared/PageTitle"

import { ActivityLog } from "./ActivityLog"
import { BrandEditor } from "./BrandEditor"
import { BrandPreview } from "./BrandPreview"
import { DomainsCard } from "./DomainsCard"
import { ScimTokensCard } from "./ScimTokensCard"
import { SsoCard } from "./SsoCard"
import { Invitations } from "./Invitations"
import { LeaveOrganization, MembersTable } from "./MembersTable"
import { NoOrganization } from "./NoOrganization"
import { isSelf, poolView } from "./organization-view"
import { OwnerActions } from "./OwnerActions"
import { TwoStepRule } from "./TwoStepRule"

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  )
}

const BAR_TONES = { normal: "bg-brand-primary", high: "bg-amber-500", full: "bg-red-600" } as const

function PoolBar({ pool }: { pool: Organization["pool"] }) {
  const view = poolView(pool)
  return (
    <div className="space-y-2 text-sm">
      <p className="flex flex-wrap items-baseline justify-between gap-2">
        <span data-testid="pool-use">{view.text}</span>
        {view.fraction === null && <span className="rounded-full bg-emerald-100 px-3 py-0.5 text-xs font-semibold text-emerald-800">Unlimited</span>}
      </p>
      <div aria-hidden="true" className="h-3 overflow-hidden rounded-full bg-gray-100">
        {view.fraction === null ? (
          <div className="h-full w-full rounded-full bg-emerald-200" />
        ) : (
          <div className={`h-full rounded-full ${BAR_TONES[view.tone]}`} style={{ width: `${Math.round(view.fraction * 100)}%` }} />
        )}
      </div>
      <p className="text-gray-600">
        Every member&apos;s questions, translations and API calls draw from this pool. The count starts again on the 1st of each month (UTC).
      </p>
    </div>
  )
}

/** The card of another feature the page shows; the app composes it in (src/site/OrganizationRoute.tsx). */
export interface OrganizationCards {
  WebhooksCard: ComponentType
}

function OrganizationView({ organization, email, userName, cards: { WebhooksCard } }: { organization: Organization; email: string; userName: string; cards: OrganizationCards }) {
  const self = organization.members.find((member) => isSelf(member, email))
  const manages = managesMembers(organization.role)
  const accountLine = `${userName} · ${poolView(organization.pool).text}`
  return (
    <>
      <header>
        <p className="text-sm font-medium text-gray-500">Organisation</p>
        <h1 className="break-words text-3xl font-bold tracking-tight">{organization.name}</h1>
        <p className="mt-1 text-gray-600">
          Your role: {ROLE_LABELS[organization.role]} · {organization.members.length} {organization.members.length === 1 ? "member" : "members"}
        </p>
      </header>

      <Card title="Requests this month">
        <PoolBar pool={organization.pool} />
      </Card>

      <Card title="Members">
        <MembersTable organization={organization} email={email} />
        {self && organization.role !== "owner" && (
          <div className="mt-5 flex flex-wrap items-center justify-between gap-3 border-t border-gray-200 pt-5 text-sm">
            <p>Leave the organisation: your requests count against your own plan again.</p>
            <LeaveOrganization organization={organization} userId={self.userId} />
          </div>
        )}
      </Card>

      <Card title="Two-step sign-in">
        <TwoStepRule organization={organization} />
      </Card>

      {manages && (
        <Card title="E-mail domains">
          <DomainsCard organization={organization} />
        </Card>
      )}

      {manages && (
        <Card title="Single sign-on">
          <SsoCard organization={organization} />
        </Card>
      )}

      {manages && (
        <Card title="Provisioning (SCIM)">
          <ScimTokensCard organization={organization} />
        </Card>
      )}

      {manages && (
        <Card title="Webhooks">
          <WebhooksCard />
        </Card>
      )}

      {manages && (
        <Card title="Invitations">
          <Invitations />
        </Card>
      )}

      <Card title="Brand">
        {manages ? (
          <BrandEditor key={organization.id} organization={organization} accountLine={accountLine} />
        ) : (
          <div className="space-y-4 text-sm">
            <p className="text-gray-600">Your extension&apos;s side panel shows the organisation&apos;s brand. The owner and admins change it.</p>
            <BrandPreview
              name={organization.brand.name}
              accentColor={organization.brand.accentColor}
              logoUrl={organization.brand.logoUrl}
              accountLine={accountLine}
              caption="Your extension's side panel header"
            />
          </div>
        )}
      </Card>

      <Card title="Activity">
        <ActivityLog />
      </Card>

      {organization.role === "owner" && (
        <Card title="Ownership">
          <OwnerActions organization={organization} />
        </Card>
      )}
    </>
  )
}

export function OrganizationPage({ cards }: { cards: OrganizationCards }) {
  const user = useSession((state) => state.user)
  const organization = useOrganization()
  const subscription = useSubscription()

  let content: ReactNode
  if (!user || organization.isPending) content = <Spinner label="Loading your organisation" />
  else if (organization.isError) content = <LoadFailure subject="your organisation" query={organization} />
  else if (organization.data) content = <OrganizationView organization={organization.data} email={user.email} userName={user.name} cards={cards} />
  else if (subscription.isPending && !subscription.isError) content = <Spinner />
  else {
    // The record when it came, else what the stored user says.
    const plan = subscription.data ? effectivePlanId(subscription.data) : planIdOfUser(user)
    content = (
      <>
        <h1 className="text-3xl font-bold tracking-tight">Organisation</h1>
        <NoOrganization enterprise={plan === "enterprise"} />
      </>
    )
  }

  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-10 sm:px-6 lg:px-8">
      <PageTitle title={organization.data ? `Organisation: ${organization.data.name}` : "Organisation"} />
      {content}
    </div>
  )
}
