/**
 * /organization/join?code=…, the link of an invitation e-mail. Signed in: Accept, then the organisation's page; a
 * refusal (another address, a paid plan of one's own, already in an organisation, expired or revoked) in the server's
 * words. Signed out: sign in or create an account, and come back here afterwards (the router state the login page
 * reads, carried through the registration too).
 */
import { Link, useLocation, useNavigate, useSearchParams } from "react-router"

import { useSession } from "~site-session/session-store"
import { failureText } from "~site/shared/failure-text"
import { Notice } from "~ui/Notice"
import { Spinner } from "~ui/Spinner"
import { buttonStyles } from "~ui/styles"
import { toast } from "~ui/toast"
import type { LoginRedirectState } from "~site/shared/login-redirect"
import { AuthCard } from "~site/shared/AuthCard"
import { useFormMutation } from "~site/shared/use-form-mutation"

import { acceptInvitation, useOrganizationChanged } from "./organization-requests"

/** What to do after a refusal, beside the server's message. */
function RefusalHelp({ code }: { code: string | undefined }) {
  if (code === "CANCEL_SUBSCRIPTION_FIRST") {
    return (
      <p className="text-sm text-gray-700">
        Cancel it from your{" "}
        <Link to="/dashboard" className={buttonStyles.link}>
          dashboard
        </Link>
        , then open this link again once it has ended.
      </p>
    )
  }
  if (code === "ALREADY_IN_ORGANIZATION") {
    return (
      <p className="text-sm text-gray-700">
        Leave your{" "}
        <Link to="/organization" className={buttonStyles.link}>
          organisation
        </Link>{" "}
        first, then open this link again.
      </p>
    )
  }
  if (code === "INVITATION_NOT_FOR_YOU") {
    return <p className="text-sm text-gray-700">Sign out, then sign in with the address the invitation was sent to.</p>
  }
  return null
}

function Accept({ code }: { code: string }) {
  const email = useSession((state) => state.user?.email)
  const navigate = useNavigate()
  const organizationChanged = useOrganizationChanged()
  const accepting = useFormMutation({
    mutationFn: acceptInvitation,
    onSuccess: async (organization) => {
      toast.success(`Welcome to ${organization.name}!`)
      await organizationChanged(organization)
      navigate("/organization", { replace: true })
    }
  })
  const refusal = accepting.error as (Error & { code?: string }) | null
  return (
    <div className="space-y-4">
      <p className="text-sm text-gray-700">
        You are signed in as <strong className="break-words">{email}</strong>. Accepting makes your AI requests count in the organisation&apos;s pool, and its
        admins see how many you make each month.
      </p>
      {refusal && (
        <>
          <Notice>{failureText(refusal)}</Notice>
          <RefusalHelp code={refusal.code} />
        </>
      )}
      <button
        type="button"
        className={`${buttonStyles.primary} w-full`}
        disabled={accepting.isPending}
        onClick={() => !accepting.isRunning() && accepting.mutate(code)}
      >
        {accepting.isPending ? "Accepting..." : "Accept invitation"}
      </button>
    </div>
  )
}

function SignInFirst() {
  const location = useLocation()
  const state: LoginRedirectState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } }
  return (
    <div className="space-y-4">
      <p className="text-sm text-gray-700">
        Sign in with the address the invitation was sent to, or create an account with it. You come back here to accept.
      </p>
      <Link to="/login" state={state} className={`${buttonStyles.primary} w-full`}>
        Sign in to accept
      </Link>
      <Link to="/register" state={state} className={`${buttonStyles.secondary} w-full`}>
        Create an account
      </Link>
    </div>
  )
}

export default function JoinPage() {
  const status = useSession((state) => state.status)
  const [params] = useSearchParams()
  const code = params.get("code")?.trim() ?? ""

  let content
  if (!code) content = <Notice>This link has no invitation code. Open the link in the invitation e-mail again, or ask for a new invitation.</Notice>
  else if (status === "loading") content = <Spinner label="Checking your session" />
  else if (status === "loggedOut") content = <SignInFirst />
  else content = <Accept code={code} />

  return (
    <AuthCard title="Join an organisation" subtitle="You have been invited to a team on Image Query AI.">
      {content}
    </AuthCard>
  )
}
