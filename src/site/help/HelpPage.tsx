import { PendingPage } from "../PendingPage"

export default function HelpPage() {
  return <PendingPage title="Help Center" />
}
