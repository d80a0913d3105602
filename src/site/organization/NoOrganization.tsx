/**
 * /organization for an account in no organisation: an Enterprise subscriber names and creates theirs (becoming its
 * owner); anyone else reads what teams are and how to get them.
 */
import { useState, type FormEvent } from "react"
import { Link } from "react-router"

import { createOrganizationSchema, INVITATION_VALID_DAYS, MAX_ORGANIZATION_MEMBERS, ORGANIZATION_NAME_MAX_LENGTH } from "~core/organizations"
import { failureText } from "~site/shared/failure-text"
import { TextField } from "~ui/fields"
import { Notice } from "~ui/Notice"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { createOrganization, useOrganizationChanged } from "./organization-requests"

const TEAM_POINTS = [
  `Up to ${MAX_ORGANIZATION_MEMBERS} people share one monthly pool of AI requests: questions, translations and API calls.`,
  `Invite by e-mail: the link works for ${INVITATION_VALID_DAYS} days. Admins invite and remove members; the owner holds the subscription.`,
  "Your name, logo and colour in the extension's side panel and popup for every member."
]

function TeamPoints() {
  return (
    <ul className="list-disc space-y-2 pl-5 text-gray-700">
      {TEAM_POINTS.map((point) => (
        <li key={point}>{point}</li>
      ))}
    </ul>
  )
}

function CreateOrganizationForm() {
  const organizationChanged = useOrganizationChanged()
  const [name, setName] = useState("")
  const [error, setError] = useState<string | null>(null)
  const creating = useFormMutation({
    mutationFn: createOrganization,
    onSuccess: (organization) => {
      toast.success(`${organization.name} is created. Invite your team below.`)
      void organizationChanged(organization)
    },
    onError: (failure) => setError(failureText(failure))
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (creating.isRunning()) return
    const parsed = createOrganizationSchema.safeParse({ name })
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Check the name")
    setError(null)
    creating.mutate(parsed.data.name)
  }

  return (
    <form className="max-w-lg space-y-4" onSubmit={submit} noValidate aria-label="Create your organisation">
      <TextField
        label="Organisation name"
        value={name}
        maxLength={ORGANIZATION_NAME_MAX_LENGTH}
        placeholder="Acme"
        autoComplete="organization"
        onChange={(event) => setName(event.target.value)}
        hint="Your members see it in the extension and in their invitation e-mails. You can change it later."
      />
      {error && <Notice>{error}</Notice>}
      <button type="submit" className={buttonStyles.primary} disabled={creating.isPending}>
        {creating.isPending ? "Creating..." : "Create organisation"}
      </button>
    </form>
  )
}

export function NoOrganization({ enterprise }: { enterprise: boolean }) {
  if (enterprise) {
    return (
      <section aria-labelledby="create-organization" className="space-y-5 rounded-2xl border border-gray-200 bg-white p-6 text-sm shadow-sm">
        <h2 id="create-organization" className="text-lg font-semibold">
          Create your organisation
        </h2>
        <p className="text-gray-700">Your Enterprise plan includes a team. Name it and you become its owner: your subscription becomes the organisation&apos;s.</p>
        <TeamPoints />
        <CreateOrganizationForm />
      </section>
    )
  }
  return (
    <section aria-labelledby="teams" className="space-y-5 rounded-2xl border border-gray-200 bg-white p-6 text-sm shadow-sm">
      <h2 id="teams" className="text-lg font-semibold">
        Teams come with Enterprise
      </h2>
      <p className="text-gray-700">You are not in an organisation. With the Enterprise plan you create one for your company:</p>
      <TeamPoints />
      <p className="text-gray-700">Invited to someone&apos;s organisation? Open the link in the invitation e-mail while signed in with the invited address.</p>
      <Link to="/pricing" className={buttonStyles.primary}>
        See the Enterprise plan
      </Link>
    </section>
  )
}
