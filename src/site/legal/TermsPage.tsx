import { PendingPage } from "../PendingPage"

export default function TermsPage() {
  return <PendingPage title="Terms of Service" />
}
