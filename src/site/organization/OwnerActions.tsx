/**
 * The owner's two irreversible acts, each behind a confirmation: passing ownership to another member (the owner
 * becomes an admin) and deleting the organisation. Neither moves the Enterprise subscription: it stays with its
 * subscriber, the person who made the organisation, and the dialogs say so.
 */
import { useState } from "react"

import type { Organization } from "~core/organizations"
import { attempt } from "~site/shared/failure-text"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { SelectField } from "~ui/fields"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { deleteOrganization, transferOwnership, useOrganizationChanged } from "./organization-requests"

/** As the dashboard's account deletion: an outlined red trigger, a filled red confirmation. */
const dangerTrigger =
  "inline-flex items-center justify-center rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50 focus-ring focus-visible:outline-offset-2"

/** Who pays for the plan, in the owner's dialogs' words: "you", or the subscriber's name. */
function payerOf(organization: Organization): { isOwner: boolean; name: string } {
  const payer = organization.members.find((member) => member.userId === organization.subscriberId)
  return { isOwner: payer?.role === "owner", name: payer?.name ?? "the person who created the organisation" }
}

/** The ownership moves, the subscription does not: the former owner who pays keeps paying, and stays. */
function transferNote(organization: Organization): string {
  const payer = payerOf(organization)
  const plan = payer.isOwner
    ? "The Enterprise plan stays with you: your subscription still pays for the pool, and while it does you cannot be removed."
    : `The Enterprise plan stays with ${payer.name}, who still pays for it.`
  return `The new owner manages the organisation and may delete it; you stay in it as an admin. ${plan} Only the new owner can give the ownership back.`
}

function TransferOwnership({ organization }: { organization: Organization }) {
  const organizationChanged = useOrganizationChanged()
  const [userId, setUserId] = useState("")
  const transferring = useFormMutation({ mutationFn: transferOwnership })
  const others = organization.members.filter((member) => member.role !== "owner")
  const chosen = others.find((member) => member.userId === userId)

  return (
    <ConfirmDialog
      trigger={{ label: "Transfer ownership", className: buttonStyles.secondary }}
      title="Transfer the ownership"
      description={transferNote(organization)}
      keepLabel="Keep the ownership"
      confirm={{ label: chosen ? `Make ${chosen.name} the owner` : "Make them the owner", busyLabel: "Transferring..." }}
      confirmDisabled={!chosen}
      onConfirm={async (close) => {
        if (!chosen) return "Choose the member who becomes the owner."
        return attempt(
          () => transferring.mutateAsync(chosen.userId),
          async () => {
            close()
            toast.success(`${chosen.name} is now the owner of ${organization.name}.`)
            setUserId("")
            await organizationChanged()
          }
        )
      }}
    >
      <SelectField label="New owner" value={userId} onChange={(event) => setUserId(event.target.value)}>
        <option value="">Choose a member</option>
        {others.map((member) => (
          <option key={member.userId} value={member.userId}>
            {member.name} ({member.email})
          </option>
        ))}
      </SelectField>
    </ConfirmDialog>
  )
}

function DeleteOrganization({ organization }: { organization: Organization }) {
  const organizationChanged = useOrganizationChanged()
  const deleting = useFormMutation({ mutationFn: deleteOrganization })
  const payer = payerOf(organization)
  const subscription = payer.isOwner ? "Your Enterprise subscription stays yours." : `The Enterprise subscription stays with ${payer.name}.`
  return (
    <ConfirmDialog
      trigger={{ label: "Delete organisation", className: dangerTrigger }}
      title={`Delete ${organization.name}?`}
      description={`Every member loses access to the organisation's requests at once and falls back to their own Free plan; pending invitations stop working. ${subscription} This cannot be undone.`}
      keepLabel="Keep the organisation"
      confirm={{ label: "Delete organisation", busyLabel: "Deleting...", className: buttonStyles.danger }}
      onConfirm={(close) =>
        attempt(deleting.mutateAsync, async () => {
          close()
          toast.success(`${organization.name} is deleted.`)
          await organizationChanged(null)
        })
      }
    />
  )
}

export function OwnerActions({ organization }: { organization: Organization }) {
  const alone = organization.members.every((member) => member.role === "owner")
  return (
    <div className="space-y-5 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-3">
        {alone ? (
          <p className="max-w-prose">To pass the ownership to someone else, first invite them: you then become an admin.</p>
        ) : (
          <>
            <p className="max-w-prose">Pass the ownership to another member. You become an admin.</p>
            <TransferOwnership organization={organization} />
          </>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-gray-200 pt-5">
        <p className="max-w-prose">Delete the organisation and end every membership. This cannot be undone.</p>
        <DeleteOrganization organization={organization} />
      </div>
    </div>
  )
}
