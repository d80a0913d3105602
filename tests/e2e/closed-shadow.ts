/**
 * What the extension draws in a page inside closed shadow roots (the on-image button, the page translation's
 * overlays and badge), read as the person meets it: the DevTools protocol's DOM with `pierce` sees into closed roots,
 * which a page's scripts (and puppeteer's selectors) cannot. A button found there is pressed with the mouse at its
 * place, a trusted click like the person's.
 */
import type { CDPSession, Page } from "puppeteer-core"

interface DomNode {
  nodeId: number
  backendNodeId: number
  nodeType: number
  nodeName: string
  nodeValue: string
  attributes?: string[]
  children?: DomNode[]
  shadowRoots?: (DomNode & { shadowRootType?: string })[]
}

const sessions = new WeakMap<Page, Promise<CDPSession>>()
const sessionOf = (page: Page) => {
  let session = sessions.get(page)
  if (!session) sessions.set(page, (session = page.createCDPSession()))
  return session
}

function textOf(node: DomNode): string {
  if (node.nodeType === 3) return node.nodeValue
  if (node.nodeName === "STYLE" || node.nodeName === "SCRIPT") return ""
  return [...(node.shadowRoots ?? []), ...(node.children ?? [])].map(textOf).join(node.nodeName === "BUTTON" || node.nodeName === "DIV" || node.nodeName === "P" ? " " : "")
}

function* walk(node: DomNode): Generator<DomNode> {
  yield node
  for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) yield* walk(child)
}

async function closedRoots(page: Page): Promise<DomNode[]> {
  const { root } = (await (await sessionOf(page)).send("DOM.getDocument", { depth: -1, pierce: true })) as { root: DomNode }
  const roots: DomNode[] = []
  for (const node of walk(root)) for (const shadow of node.shadowRoots ?? []) if (shadow.shadowRootType === "closed") roots.push(shadow)
  return roots
}

/** The text of each closed shadow root of the page's top frame, spaces collapsed. */
export async function closedShadowTexts(page: Page): Promise<string[]> {
  return (await closedRoots(page)).map((root) => textOf(root).replace(/\s+/g, " ").trim()).filter(Boolean)
}

/** Clicks, with the mouse, the button named `name` inside a closed shadow root of the page. */
export async function clickClosedShadowButton(page: Page, name: string): Promise<void> {
  for (const root of await closedRoots(page)) {
    for (const node of walk(root)) {
      if (node.nodeName !== "BUTTON" || textOf(node).replace(/\s+/g, " ").trim() !== name) continue
      const session = await sessionOf(page)
      const { model } = (await session.send("DOM.getBoxModel", { backendNodeId: node.backendNodeId })) as { model: { content: number[] } }
      const [x0, y0, , , x2, y2] = model.content as [number, number, number, number, number, number]
      await page.mouse.click((x0 + x2) / 2, (y0 + y2) / 2)
      return
    }
  }
  throw new Error(`No button "${name}" in the page's closed shadow roots`)
}
