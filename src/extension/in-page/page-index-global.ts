/**
 * What the page index (page-index.entry.ts) leaves on its isolated world's global object: that it is installed, and its
 * images' elements by address, for the page translation script (page-translation/), which the side panel injects
 * into the same world of the same frame and which must find the images the index lists without a second watcher.
 * A content script's world is its extension's alone: the page's own scripts cannot see or replace it.
 */

const PAGE_INDEX_GLOBAL = "__imageQueryAiPageIndex"

export interface PageIndexGlobal {
  /** Each listed image's element, by the address it is listed by (pending page changes applied first). */
  elements(): Map<string, Element>
}

type World = typeof globalThis & { [PAGE_INDEX_GLOBAL]?: PageIndexGlobal }

/** The page index of this world, or null when it has not been injected into this frame. */
export function pageIndexOf(world: typeof globalThis = globalThis): PageIndexGlobal | null {
  return (world as World)[PAGE_INDEX_GLOBAL] ?? null
}

/** Installs `index` as this world's page index, unless one is there; true when this call installed it. */
export function installPageIndex(index: PageIndexGlobal, world: typeof globalThis = globalThis): boolean {
  if ((world as World)[PAGE_INDEX_GLOBAL]) return false
  ;(world as World)[PAGE_INDEX_GLOBAL] = index
  return true
}
