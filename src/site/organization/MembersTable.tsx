/**
 * The organisation's members: name, e-mail, role, this month's AI requests and, for the owner and admins (the server
 * answers it to them only), whether each has two-step sign-in on, in words. The owner may change the role of,
 * or remove, anyone but themself; an admin the members and the other admins, never the owner; a member nobody. One's
 * own row is marked "you"; leaving is offered beside the table (LeaveOrganization).
 */
import type { Organization, OrganizationMember } from "~core/organizations"
import { DataTable, type DataColumn } from "~site/shared/DataTable"
import { attempt, failureText } from "~site/shared/failure-text"
import { ROLE_LABELS } from "~site/shared/membership"
import { useFormMutation } from "~site/shared/use-form-mutation"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"

import { changeMemberRole, removeMember, useOrganizationChanged } from "./organization-requests"
import { figure } from "~site/shared/daily-figures"
import { canManage, isSelf } from "./organization-view"

const smallButton = `${buttonStyles.secondary} !px-3 !py-1.5 whitespace-nowrap text-xs`

function RoleButton({ member }: { member: OrganizationMember }) {
  const organizationChanged = useOrganizationChanged()
  const next = member.role === "admin" ? "member" : "admin"
  const changing = useFormMutation({
    mutationFn: () => changeMemberRole(member.userId, next),
    onSettled: () => void organizationChanged()
  })
  const label = next === "admin" ? "Make admin" : "Make member"
  return (
    <div className="space-y-1">
      <button
        type="button"
        className={smallButton}
        disabled={changing.isPending}
        aria-label={`${label}: ${member.name}`}
        onClick={() => !changing.isRunning() && changing.mutate()}
      >
        {changing.isPending ? "Changing..." : label}
      </button>
      {changing.isError && (
        <p role="alert" className="max-w-56 text-xs text-red-700">
          {failureText(changing.error)}
        </p>
      )}
    </div>
  )
}

function RemoveButton({ member, organizationName }: { member: OrganizationMember; organizationName: string }) {
  const organizationChanged = useOrganizationChanged()
  const removing = useFormMutation({ mutationFn: () => removeMember(member.userId) })
  return (
    <ConfirmDialog
      trigger={{ label: "Remove", className: smallButton, accessibleName: `Remove ${member.name}` }}
      title={`Remove ${member.name} from ${organizationName}?`}
      description={`${member.email} loses access to the organisation's requests at once: their next requests count against their own Free plan. You can invite them again later.`}
      keepLabel="Keep them"
      confirm={{ label: "Remove member", busyLabel: "Removing..." }}
      onConfirm={() => attempt(removing.mutateAsync, organizationChanged)}
    />
  )
}

/** A member's or an admin's way out; the owner transfers ownership or deletes the organisation instead. */
export function LeaveOrganization({ organization, userId }: { organization: Organization; userId: string }) {
  const organizationChanged = useOrganizationChanged()
  const leaving = useFormMutation({ mutationFn: () => removeMember(userId) })
  return (
    <ConfirmDialog
      trigger={{ label: "Leave organisation", className: buttonStyles.secondary }}
      title={`Leave ${organization.name}?`}
      description="Your requests stop counting in the organisation's pool at once and fall back to your own Free plan. To come back you need a new invitation."
      keepLabel="Stay"
      confirm={{ label: "Leave organisation", busyLabel: "Leaving..." }}
      onConfirm={(close) =>
        attempt(leaving.mutateAsync, async () => {
          close()
          toast.success(`You left ${organization.name}.`)
          await organizationChanged(null)
        })
      }
    />
  )
}

/** "On" or "Off" in words, not only in colour. */
function TwoStepState({ on }: { on: boolean }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${on ? "bg-emerald-100 text-emerald-800" : "bg-gray-100 text-gray-700"}`}>{on ? "On" : "Off"}</span>
}

/** The member's cell names the row; on a narrow screen the role and the usage join it, their columns hidden. */
function MemberCell({ member, organization, self }: { member: OrganizationMember; organization: Organization; self: boolean }) {
  return (
    <>
      <span className="block font-medium text-gray-900">
        {member.name}
        {self && <span className="ml-1 text-xs font-normal text-gray-500">(you)</span>}
      </span>
      {/* Whose subscription funds the pool: the server refuses to remove them while it does, and says so. */}
      {member.userId === organization.subscriberId && <span className="block text-xs text-gray-600">Pays for the plan</span>}
      <span className="block break-all text-gray-600">{member.email}</span>
      <span className="mt-1 block text-gray-600 sm:hidden" data-narrow-only>
        {ROLE_LABELS[member.role]} · {figure(member.usedThisMonth)} this month
        {member.twoStep !== undefined && ` · two-step sign-in ${member.twoStep ? "on" : "off"}`}
      </span>
    </>
  )
}

export function MembersTable({ organization, email }: { organization: Organization; email: string }) {
  const manages = organization.members.some((member) => canManage(organization.role, member, isSelf(member, email)))
  const showsTwoStep = organization.members.some((member) => member.twoStep !== undefined)
  const columns: DataColumn<OrganizationMember>[] = [
    { header: "Member", rowHeader: true, cell: (member) => <MemberCell member={member} organization={organization} self={isSelf(member, email)} /> },
    { header: "Role", from: "sm", cell: (member) => ROLE_LABELS[member.role] },
    { header: "This month", from: "sm", align: "end", cell: (member) => figure(member.usedThisMonth) }
  ]
  if (showsTwoStep) columns.push({ header: "Two-step sign-in", from: "sm", cell: (member) => member.twoStep !== undefined && <TwoStepState on={member.twoStep} /> })
  if (manages) {
    columns.push({
      header: "Actions",
      headerHidden: true,
      cell: (member) =>
        canManage(organization.role, member, isSelf(member, email)) && (
          <div className="flex flex-col items-end gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
            <RoleButton member={member} />
            <RemoveButton member={member} organizationName={organization.name} />
          </div>
        )
    })
  }
  return (
    <DataTable
      caption={`Members of ${organization.name}, with their role${showsTwoStep ? ", their AI requests this month and whether they have two-step sign-in on" : " and their AI requests this month"}`}
      columns={columns}
      rows={organization.members}
      rowKey={(member) => member.userId}
      empty="The organisation has no members."
    />
  )
}
