/**
 * Invitations (owner and admins): the invite form (an e-mail address and the role it gives) and the pending
 * invitations with their role and expiry, each revocable after a confirmation.
 */
import { useQueryClient } from "@tanstack/react-query"
import { useState, type FormEvent } from "react"

import { ASSIGNABLE_ROLES, INVITATION_VALID_DAYS, inviteMemberSchema, MAX_ORGANIZATION_MEMBERS, type AssignableRole } from "~core/organizations"
import { longDate } from "~core/format"
import { attempt, failureText } from "~site/shared/failure-text"
import { LoadFailure } from "~site/shared/LoadFailure"
import { ROLE_LABELS } from "~site/shared/membership"
import { organizationKeys } from "~site/shared/organization-query"
import { RowList } from "~site/shared/RowList"
import { ConfirmDialog } from "~ui/ConfirmDialog"
import { SelectField, TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { inviteMember, revokeInvitation, useInvitations } from "./organization-requests"

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<AssignableRole>("member")
  const [error, setError] = useState<string | null>(null)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const inviting = useFormMutation({
    mutationFn: inviteMember,
    onSuccess: (invitation) => {
      setEmail("")
      setSentTo(invitation.email)
      onInvited()
    },
    onError: (failure) => setError(failureText(failure))
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (inviting.isRunning()) return
    setSentTo(null)
    const parsed = inviteMemberSchema.safeParse({ email, role })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Check the address")
    setError(null)
    inviting.mutate(parsed.data)
  }

  return (
    <form className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end" onSubmit={submit} noValidate aria-label="Invite a member">
      <TextField label="E-mail address" type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} />
      <SelectField label="Role" value={role} onChange={(event) => setRole(event.target.value as AssignableRole)}>
        {ASSIGNABLE_ROLES.map((choice) => (
          <option key={choice} value={choice}>
            {ROLE_LABELS[choice]}
          </option>
        ))}
      </SelectField>
      <button type="submit" className={buttonStyles.primary} disabled={inviting.isPending}>
        {inviting.isPending ? "Inviting..." : "Send invitation"}
      </button>
      {error && (
        <div className="sm:col-span-3">
          <Notice>{error}</Notice>
        </div>
      )}
      {sentTo && (
        <div className="sm:col-span-3">
          <Notice tone="success">Invitation sent to {sentTo}.</Notice>
        </div>
      )}
    </form>
  )
}

export function Invitations() {
  const queryClient = useQueryClient()
  const invitations = useInvitations(true)
  const revoking = useFormMutation({ mutationFn: revokeInvitation })
  const refresh = () => void queryClient.invalidateQueries({ queryKey: organizationKeys.all })

  return (
    <div className="space-y-5 text-sm">
      <p className="text-gray-600">
        We e-mail a link that works once, for {INVITATION_VALID_DAYS} days. The invitee signs in or creates an account with that address, then accepts. An
        organisation has at most {MAX_ORGANIZATION_MEMBERS} members, you included. An admin invites and removes members; a member only uses the requests.
      </p>
      <InviteForm onInvited={refresh} />
      <h3 className="font-semibold">Pending invitations</h3>
      {invitations.isPending && <Spinner />}
      {invitations.isError && <LoadFailure subject="the invitations" query={invitations} className="space-y-2" />}
      {invitations.data && (
        <RowList
          label="Pending invitations"
          items={invitations.data}
          empty="No invitation is waiting for an answer."
          breakNames
          row={(invitation) => ({
            key: invitation.id,
            name: invitation.email,
            detail: (
              <>
                {ROLE_LABELS[invitation.role]} · expires {longDate(invitation.expiresAt)}
              </>
            ),
            action: (
              <ConfirmDialog
                trigger={{ label: "Revoke", className: buttonStyles.secondary, accessibleName: `Revoke the invitation of ${invitation.email}` }}
                title={`Revoke the invitation of ${invitation.email}?`}
                description="The link in the e-mail stops working at once. You can invite the address again later."
                confirm={{ label: "Revoke invitation", busyLabel: "Revoking..." }}
                onConfirm={() => attempt(() => revoking.mutateAsync(invitation.id), refresh)}
              />
            )
          })}
        />
      )}
    </div>
  )
}
