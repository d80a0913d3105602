import { PendingPage } from "../PendingPage"

export default function AdminPage() {
  return <PendingPage title="Admin Dashboard" />
}
