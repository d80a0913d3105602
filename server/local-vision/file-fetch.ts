/**
 * fetch() for file: URLs, in a vision worker thread only: Human loads its model through fetch, which Node's undici
 * refuses for file: URLs ("not implemented"), and its Node build for the WebAssembly backend has no file loader of
 * its own. Every other URL goes to the real fetch. Installed once per thread, never in the server's main thread.
 */
import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"

let installed = false

export function installFileFetch(): void {
  if (installed) return
  installed = true
  const networkFetch = globalThis.fetch
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    if (!url.startsWith("file:")) return networkFetch(input, init)
    return new Response(await readFile(fileURLToPath(url)))
  }
}
