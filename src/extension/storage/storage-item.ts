/**
 * One value kept in chrome.storage, described once: its key, its area, the zod schema a stored value must pass
 * and the value to use when nothing valid is stored. Every read goes through the schema, so a value written by an
 * older version, by hand or by a bug comes back as the fallback (or, with `.catch()` inside the schema, field by
 * field) instead of reaching the code as an unchecked `unknown`.
 *
 * Usable from the service worker and from the extension's pages; `useStorageItem` is the React side.
 *
 * Reads, writes and change events go through @plasmohq/storage's Storage, set to keep values as chrome.storage
 * holds them (objects, numbers, strings) rather than as JSON text, its default: the format is the one this module
 * wrote on chrome.storage directly before, so every value stored by an earlier version reads back as it was.
 */
import { Storage, type SerdeOptions } from "@plasmohq/storage"
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

/** A value kept in chrome.storage as its readers see it: what useStorageItem needs (a sealed item is one too). */
export interface StoredValue<T> {
  readonly key: string
  readonly area: StorageAreaName
  get(): Promise<T>
  set(value: T): Promise<void>
  remove(): Promise<void>
  /** Calls `listener` with the new value whenever any extension context changes it; returns the unsubscribe. */
  watch(listener: (value: T) => void): () => void
}

export interface StorageItem<T> extends StoredValue<T> {
  /** The stored value through the schema, or the fallback. */
  parse(raw: unknown): T
}

/** Values passed to chrome.storage and back as they are (Storage's default would JSON-stringify them). */
const AS_STORED: SerdeOptions = {
  serializer: (value) => value as unknown as string,
  deserializer: <T>(raw: string) => raw as unknown as T
}

export function storageItem<T>({ key, area = "local", schema, fallback, encode = (value) => value }: StorageItemDefinition<T>): StorageItem<T> {
  // A Storage takes hold of chrome.storage when made: one per use, so it is always the current one.
  const storage = () => new Storage({ area, serde: AS_STORED })
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
      return parse(await storage().get<unknown>(key))
    },
    async set(value) {
      await storage().set(key, encode(value))
    },
    async remove() {
      await storage().remove(key)
    },
    watch(listener) {
      const watcher = storage()
      // Storage calls back for this key in this area only, removal included (newValue undefined: the fallback).
      const callbacks = { [key]: (change: chrome.storage.StorageChange) => listener(parse(change.newValue)) }
      watcher.watch(callbacks)
      return () => void watcher.unwatch(callbacks)
    }
  }
}

/** A value kept only while the browser runs (chrome.storage.session): null when there is none or it fails the schema. */
export function sessionItem<T>(key: string, schema: z.ZodType<T>): StorageItem<T | null> {
  return storageItem<T | null>({ key, area: "session", schema: schema.nullable(), fallback: null })
}
