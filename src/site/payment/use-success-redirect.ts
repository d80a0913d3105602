import { useCallback, useEffect, useRef } from "react"
import { useNavigate } from "react-router"

import { MOCK_PAYMENT_WAIT_MS } from "~core/limits"

export const PAYMENT_SUCCESS_PATH = "/dashboard?subscription=success"

/** The spec's wait after a successful payment: MOCK_PAYMENT_WAIT_MS, then the dashboard's success view. */
export function useSuccessRedirect(): (beforeLeaving?: () => void) => void {
  const navigate = useNavigate()
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    []
  )
  return useCallback(
    (beforeLeaving?: () => void) => {
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        timer.current = null
        beforeLeaving?.()
        void navigate(PAYMENT_SUCCESS_PATH)
      }, MOCK_PAYMENT_WAIT_MS)
    },
    [navigate]
  )
}
