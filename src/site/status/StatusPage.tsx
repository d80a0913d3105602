import { PendingPage } from "../PendingPage"

export default function StatusPage() {
  return <PendingPage title="System Status" />
}
