/**
 * The page changes the image index has not applied yet. A mutation costs one Set insertion here; the index reads
 * and clears the sets in one batch when it flushes (see ./image-watcher).
 */
import { isOwnNode, OWN_NODE_ATTRIBUTE } from "./own-nodes"

export class PendingChanges {
  /** Subtrees added to the page. */
  readonly added = new Set<Node>()
  /** Elements whose src, srcset, sizes or media changed. */
  readonly changed = new Set<Element>()
  /** Elements whose inline style or class changed: their backgrounds, and for a class their descendants'. */
  readonly restyled = new Set<Element>()
  /** Images that finished loading (their intrinsic size is known now). */
  readonly loadedImages = new Set<HTMLImageElement>()
  /** Roots whose style sheets changed. */
  readonly rulesChanged = new Set<Document | ShadowRoot>()
  /** Some element left the page: entries must be pruned. */
  removed = false
  /** A size the index reports became known (an image or a background probe loaded). */
  loaded = false

  /** Queues what the records tell, skipping the extension's own nodes; true when anything was queued. */
  record(records: MutationRecord[]): boolean {
    let queued = false
    for (const record of records) {
      const target = record.target
      if (isOwnNode(target)) continue
      if (record.type === "attributes") {
        if (record.attributeName === "style" || record.attributeName === "class") this.restyled.add(target as Element)
        else this.changed.add(target as Element)
        queued = true
        continue
      }
      const root = target.getRootNode() as Document | ShadowRoot
      // A <style> whose text changed.
      if (isStyleNode(target)) {
        this.rulesChanged.add(root)
        queued = true
      }
      for (let index = 0; index < record.addedNodes.length; index++) {
        const node = record.addedNodes[index]!
        if (node.nodeType !== 1 || (node as Element).hasAttribute(OWN_NODE_ATTRIBUTE)) continue
        this.added.add(node)
        if (isStyleNode(node)) this.rulesChanged.add(root)
        queued = true
      }
      for (let index = 0; index < record.removedNodes.length; index++) {
        const node = record.removedNodes[index]!
        if (node.nodeType !== 1 || (node as Element).hasAttribute(OWN_NODE_ATTRIBUTE)) continue
        this.removed = true
        if (isStyleNode(node)) this.rulesChanged.add(root)
        queued = true
      }
    }
    return queued
  }

  clear(): void {
    this.added.clear()
    this.changed.clear()
    this.restyled.clear()
    this.loadedImages.clear()
    this.rulesChanged.clear()
    this.removed = false
    this.loaded = false
  }
}

function isStyleNode(node: Node): boolean {
  const name = node.nodeName.toLowerCase()
  return name === "style" || name === "link"
}
