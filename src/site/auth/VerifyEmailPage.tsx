import { PendingPage } from "../PendingPage"

export default function VerifyEmailPage() {
  return <PendingPage title="Verify your email" />
}
