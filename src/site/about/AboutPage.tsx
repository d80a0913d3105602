import { PendingPage } from "../PendingPage"

export default function AboutPage() {
  return <PendingPage title="About" />
}
