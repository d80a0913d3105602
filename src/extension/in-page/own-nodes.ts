/**
 * What marks the extension's own elements on a page (the on-image button's host, the capture overlay) so that the
 * image finder never indexes or observes them. Its own module: the on-image button's content script needs this and
 * none of the image finder.
 */

/** Elements of the extension's own UI carry this attribute; nothing inside them is ever scanned or observed. */
export const OWN_NODE_ATTRIBUTE = "data-image-query-ai"
export const OWN_SELECTOR = `[${OWN_NODE_ATTRIBUTE}]`

const ELEMENT_NODE = 1
const DOCUMENT_FRAGMENT_NODE = 11

export function isShadowRoot(node: Node | null | undefined): node is ShadowRoot {
  return !!node && node.nodeType === DOCUMENT_FRAGMENT_NODE && "host" in node
}

/** True when the node is, or is inside, one of our own hosts, looking through shadow boundaries. */
export function isOwnNode(node: Node): boolean {
  let current: Node | null = node
  while (current) {
    const element: Element | null = current.nodeType === ELEMENT_NODE ? (current as Element) : current.parentElement
    if (element?.closest(OWN_SELECTOR)) return true
    const root = current.getRootNode()
    current = isShadowRoot(root) ? root.host : null
  }
  return false
}

/** Declarations as one inline style, each `!important`: inline and important beats every rule of the page. */
export function importantStyle(declarations: readonly string[]): string {
  return declarations.map((declaration) => `${declaration} !important;`).join(" ")
}

/**
 * One of our hosts: an element of ours (marked, so the image finder skips it) styled inline with `style`, its content
 * in a closed shadow root with `css` as its only styles. Closed: page scripts cannot reach inside through
 * host.shadowRoot, so they can neither restyle nor script what we draw. The caller appends the host where it belongs.
 */
export function createOwnHost(document: Document, tag: string, style: string, css: string): { host: HTMLElement; shadow: ShadowRoot } {
  const host = document.createElement(tag)
  host.setAttribute(OWN_NODE_ATTRIBUTE, "")
  host.setAttribute("style", style)
  const shadow = host.attachShadow({ mode: "closed" })
  const styles = document.createElement("style")
  styles.textContent = css
  shadow.append(styles)
  return { host, shadow }
}
