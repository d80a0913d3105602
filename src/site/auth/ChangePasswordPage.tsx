import { PendingPage } from "../PendingPage"

export default function ChangePasswordPage() {
  return <PendingPage title="Change password" />
}
