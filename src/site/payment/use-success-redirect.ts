import { useCallback, useEffect, useRef } from "react"
import { useNavigate } from "react-router"

import { SECOND_MS } from "~core/time"

export const MOCK_PAYMENT_WAIT_MS = 2 * SECOND_MS

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
