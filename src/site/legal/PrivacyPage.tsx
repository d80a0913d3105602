import { PendingPage } from "../PendingPage"

export default function PrivacyPage() {
  return <PendingPage title="Privacy Policy" />
}
