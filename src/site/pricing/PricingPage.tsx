import { PendingPage } from "../PendingPage"

export default function PricingPage() {
  return <PendingPage title="Pricing" />
}
