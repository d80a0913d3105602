import { Navigate, useSearchParams } from "react-router"

import { findPlan } from "~core/plans"

import { PageTitle } from "../PageTitle"
import { PaymentForm } from "./PaymentForm"

export default function PaymentPage() {
  const [params] = useSearchParams()
  const plan = findPlan(params.get("plan"))
  if (!plan) return <Navigate to="/pricing" replace />
  const annual = params.get("annual") === "true"
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:px-8">
      <PageTitle title={`Payment: ${plan.name} plan`} />
      <h1 className="text-3xl font-bold tracking-tight">Payment: {plan.name} plan</h1>
      <PaymentForm plan={plan} annual={annual} />
    </div>
  )
}
