import { PendingPage } from "../PendingPage"

export default function LoginPage() {
  return <PendingPage title="Sign in" />
}
