import { useCallback, useEffect, useState } from "react"

import type { StoredValue } from "./storage-item"

/**
 * The item's value in a component: `undefined` until the first read answers, then the stored value (or the
 * fallback), following changes made by any extension context. `save` writes through storage, so every open page
 * (popup, side panel, tab pages) sees the same value.
 */
export function useStorageItem<T>(item: StoredValue<T>): [value: T | undefined, save: (value: T) => Promise<void>] {
  const [value, setValue] = useState<T | undefined>(undefined)
  useEffect(() => {
    let changedSinceRead = false
    const stop = item.watch((next) => {
      changedSinceRead = true
      setValue(next)
    })
    void item.get().then((stored) => {
      // A change that arrived while the read was in flight is newer than what the read returns.
      if (!changedSinceRead) setValue(stored)
    })
    return stop
  }, [item])
  const save = useCallback(
    async (next: T) => {
      setValue(next)
      await item.set(next)
    },
    [item]
  )
  return [value, save]
}
