/**
 * What the admin panel shows an admin the server refuses for want of two-step sign-in (ADMIN_MFA=required, the
 * production default): the server's words, why, and the way to the dashboard's Two-step sign-in card.
 */
import { Link } from "react-router"

import { ShieldCheck } from "~ui/icons"
import { buttonStyles } from "~ui/styles"
import { TWO_STEP_SETUP } from "~site/shared/navigation"
import { PageTitle } from "~site/shared/PageTitle"

export function TwoStepRequired({ message }: { message: string }) {
  return (
    <section className="mx-auto max-w-lg px-4 py-20 text-center">
      <PageTitle title="Two-step sign-in required" />
      <ShieldCheck aria-hidden="true" className="mx-auto h-12 w-12 text-amber-600" />
      <h1 className="mt-4 text-2xl font-bold">Two-step sign-in required</h1>
      <p className="mt-2 text-gray-700">{message}</p>
      <p className="mt-2 text-sm text-gray-600">
        The admin panel can change every account, so it asks for a second step as well as your password: a code from an authenticator app, or a passkey.
      </p>
      <Link to={TWO_STEP_SETUP} className={`mt-6 ${buttonStyles.primary}`}>
        Set up two-step sign-in
      </Link>
    </section>
  )
}
