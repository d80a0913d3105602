/**
 * The organisation's two-step sign-in rule. The owner switches it on or off (a radix Switch: a button with the
 * switch role, reached with Tab and toggled with Space or Enter); the server refuses to turn it on until the owner's
 * own account has two-step sign-in, which the card then leads to. The owner and admins see how many members have
 * it on (the members table says who); everyone is told what the rule means for them.
 */
import { Switch } from "radix-ui"
import { useId, useState } from "react"
import { Link } from "react-router"

import type { Organization } from "~core/organizations"
import { failureText } from "~site/shared/failure-text"
import { isTwoStepRequired } from "~site/shared/two-step-required"
import { Notice } from "~ui/Notice"
import { TWO_STEP_SETUP } from "~site/shared/navigation"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { updateOrganization, useOrganizationChanged } from "./organization-requests"

const setUpLink = (
  <Link to={TWO_STEP_SETUP} className="font-semibold text-brand-secondary underline underline-offset-2 focus-ring">
    Set up two-step sign-in
  </Link>
)

function RuleSwitch({ organization }: { organization: Organization }) {
  const organizationChanged = useOrganizationChanged()
  const switchId = useId()
  const [failure, setFailure] = useState<unknown>(null)
  const changing = useFormMutation({
    mutationFn: (requireMfa: boolean) => updateOrganization({ requireMfa }),
    onMutate: () => setFailure(null),
    onSuccess: (changed) => void organizationChanged(changed),
    onError: (error) => setFailure(error)
  })
  const on = organization.requireMfa
  return (
    <div className="space-y-3">
      <div className="flex items-start gap-3">
        <Switch.Root
          id={switchId}
          checked={on}
          disabled={changing.isPending}
          onCheckedChange={(checked) => !changing.isRunning() && changing.mutate(checked)}
          aria-describedby={`${switchId}-meaning`}
          className={`relative mt-0.5 inline-flex h-6 w-11 shrink-0 rounded-full transition focus-ring focus-visible:outline-offset-2 disabled:opacity-60 ${on ? "bg-blue-700" : "bg-gray-400"}`}
        >
          <Switch.Thumb aria-hidden="true" className={`absolute top-0.5 h-5 w-5 rounded-full bg-white shadow transition ${on ? "left-[1.375rem]" : "left-0.5"}`} />
        </Switch.Root>
        <div>
          <label htmlFor={switchId} className="cursor-pointer font-medium text-gray-900">
            Require two-step sign-in of every member
          </label>
          <p id={`${switchId}-meaning`} className="text-gray-600">
            {on ? "On" : "Off"}. While it is on, anyone without two-step sign-in, you included, cannot use the team&apos;s plan until they turn it on.
          </p>
        </div>
      </div>
      {failure !== null && (
        <Notice>
          {failureText(failure)} {isTwoStepRequired(failure) && setUpLink}
        </Notice>
      )}
    </div>
  )
}

export function TwoStepRule({ organization }: { organization: Organization }) {
  const counted = organization.members.filter((member) => member.twoStep !== undefined)
  const withTwoStep = counted.filter((member) => member.twoStep).length
  return (
    <div className="space-y-4 text-sm">
      {organization.role === "owner" ? (
        <RuleSwitch organization={organization} />
      ) : organization.requireMfa ? (
        <p>
          {organization.name} requires two-step sign-in of every member: without it, your requests cannot use the team&apos;s plan. {setUpLink} on your dashboard if
          you have not yet.
        </p>
      ) : (
        <p className="text-gray-600">Two-step sign-in is not required of members. The owner decides.</p>
      )}
      {counted.length > 0 && (
        <p className="text-gray-600" data-testid="two-step-count">
          {withTwoStep} of {counted.length} {counted.length === 1 ? "member has" : "members have"} two-step sign-in on.
        </p>
      )}
    </div>
  )
}
