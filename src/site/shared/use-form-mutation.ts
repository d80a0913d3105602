/** useMutation as the site's sign-in and account forms send their one request. */
import { useMutation, useQueryClient, type UseMutationOptions, type UseMutationResult } from "@tanstack/react-query"
import { useId } from "react"

export type FormMutation<TData, TVariables> = UseMutationResult<TData, Error, TVariables> & {
  /**
   * Whether this form's request is on its way, read now from the mutation cache. `isPending` reaches the component
   * only when it renders again, after the event: a second submit in the same moment (a double click, Enter pressed
   * twice) checks this instead, or it would send a second request.
   */
  isRunning: () => boolean
}

/**
 * A form's mutation, keyed to the component so `isRunning` sees only its own request. It always runs, even when the
 * browser reports itself offline: the request then fails and the form says so, where the library's default would
 * hold it, busy, until the connection returns.
 */
export function useFormMutation<TData = unknown, TVariables = void>(
  options: Omit<UseMutationOptions<TData, Error, TVariables>, "mutationKey" | "networkMode">
): FormMutation<TData, TVariables> {
  const queryClient = useQueryClient()
  const mutationKey = ["form", useId()]
  const mutation = useMutation({ ...options, mutationKey, networkMode: "always" })
  return { ...mutation, isRunning: () => queryClient.isMutating({ mutationKey, exact: true }) > 0 }
}
