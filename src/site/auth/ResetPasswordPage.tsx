import { PendingPage } from "../PendingPage"

export default function ResetPasswordPage() {
  return <PendingPage title="Reset your password" />
}
