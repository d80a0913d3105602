import { PendingPage } from "../PendingPage"

export default function DashboardPage() {
  return <PendingPage title="Dashboard" />
}
