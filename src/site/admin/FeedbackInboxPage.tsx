import { PendingPage } from "../PendingPage"

export default function FeedbackInboxPage() {
  return <PendingPage title="Feedback" />
}
