import { PendingPage } from "../PendingPage"

export default function CookiesPage() {
  return <PendingPage title="Cookie Policy" />
}
