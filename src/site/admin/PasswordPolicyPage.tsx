import { PendingPage } from "../PendingPage"

export default function PasswordPolicyPage() {
  return <PendingPage title="Password Policy" />
}
