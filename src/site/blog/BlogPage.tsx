import { PendingPage } from "../PendingPage"

export default function BlogPage() {
  return <PendingPage title="Blog" />
}
