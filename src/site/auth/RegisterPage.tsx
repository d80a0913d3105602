import { PendingPage } from "../PendingPage"

export default function RegisterPage() {
  return <PendingPage title="Create your account" />
}
