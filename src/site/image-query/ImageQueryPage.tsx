import { PendingPage } from "../PendingPage"

export default function ImageQueryPage() {
  return <PendingPage title="Image Query AI" />
}
