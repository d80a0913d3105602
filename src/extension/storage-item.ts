/**
 * One value kept in chrome.storage, described once: its key, its area, the zod schema a stored value must pass
 * and the value to use when nothing valid is stored. Every read goes through the schema, so a value written by an
 * older version, by hand or by a bug comes back as the fallback (or, with `.catch()` inside the schema, field by
 * field) instead of reaching the code as an unchecked `unknown`.
 *
 * Usable from the service worker and from the extension's pages; `useStorageItem` is the React side.
 */
import type { z } from "zod"

export type StorageAreaName = "local" | "session"

export interface StorageItemDefinition<T> {
  key: string
  area?: StorageAreaName
  schema: z.ZodType<T>
  /** The value when nothing is stored or the stored value fails the schema. */
  fallback: T
  /** How a value is written, when not as it is (the schema must read it back). */
  encode?: (value: T) => unknown
}

export interface StorageItem<T> {
  readonly key: string
  readonly area: StorageAreaName
  /** The stored value through the schema, or the fallback. */
  parse(raw: unknown): T
  get(): Promise<T>
  set(value: T): Promise<void>
  remove(): Promise<void>
  /** Calls `listener` with the new value whenever any extension context changes it; returns the unsubscribe. */
  watch(listener: (value: T) => void): () => void
}

export function storageItem<T>({ key, area = "local", schema, fallback, encode = (value) => value }: StorageItemDefinition<T>): StorageItem<T> {
  const storage = () => chrome.storage[area]
  const parse = (raw: unknown): T => {
    if (raw === undefined) return fallback
    const result = schema.safeParse(raw)
    return result.success ? result.data : fallback
  }
  return {
    key,
    area,
    parse,
    async get() {
      const items = await storage().get(key)
      return parse(items[key])
    },
    async set(value) {
      await storage().set({ [key]: encode(value) })
    },
    async remove() {
      await storage().remove(key)
    },
    watch(listener) {
      const onChanged = (changes: Record<string, chrome.storage.StorageChange>, changedArea: string) => {
        if (changedArea === area && key in changes) listener(parse(changes[key]?.newValue))
      }
      const changes = chrome.storage.onChanged
      changes.addListener(onChanged)
      return () => changes.removeListener(onChanged)
    }
  }
}
