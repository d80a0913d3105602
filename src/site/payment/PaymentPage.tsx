import { Navigate, useSearchParams } from "react-router"

import { findPlan } from "~core/plans"

import { PendingPage } from "../PendingPage"

export default function PaymentPage() {
  const [params] = useSearchParams()
  const plan = findPlan(params.get("plan"))
  if (!plan) return <Navigate to="/pricing" replace />
  return <PendingPage title={`Payment: ${plan.name} plan`} />
}
