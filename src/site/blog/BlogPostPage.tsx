import { PendingPage } from "../PendingPage"

export default function BlogPostPage() {
  return <PendingPage title="Blog post" />
}
