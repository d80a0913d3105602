/**
 * The network of the site's component tests: an in-memory API answering in the server's wrapper,
 * behind `configureApi({ fetch })`. Routes are "METHOD /path"; unknown ones answer 404.
 * Test-only: imported by *.test.tsx files, never by the app.
 */
import { vi } from "vitest"

import { configureApi } from "~site-session/site-client"
import { teardownSession, useSession } from "~site-session/session-store"
import { fail, ok, type ApiErrorBody } from "~core/api-answer"
import { toast } from "~ui/toast"

export interface SeenRequest {
  method: string
  path: string
  query: string
  body: unknown
  authorization: string | null
}

export interface Answer {
  status: number
  body: unknown
}

export type Handler = (request: SeenRequest) => Answer | Promise<Answer>

export const answer = (data: unknown, status = 200): Answer => ({ status, body: ok(data) })
export const refuse = (status: number, code: string, message: string, extra: Omit<ApiErrorBody, "code" | "message"> = {}): Answer => ({
  status,
  body: fail(code, message, extra)
})

export function createFakeApi(initialRoutes: Array<[string, Handler]>) {
  const requests: SeenRequest[] = []
  const routes = new Map(initialRoutes)

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init)
    const url = new URL(request.url)
    // A multipart body (an upload) is seen as its FormData; any other as the JSON it carries.
    const multipart = request.headers.get("content-type")?.startsWith("multipart/form-data") ?? false
    const text = multipart ? "" : await request.clone().text()
    const seen: SeenRequest = {
      method: request.method.toUpperCase(),
      path: url.pathname,
      query: url.search,
      body: multipart ? await request.clone().formData() : text ? (JSON.parse(text) as unknown) : undefined,
      authorization: request.headers.get("authorization")
    }
    requests.push(seen)
    const handler = routes.get(`${seen.method} ${seen.path}`)
    const { status, body } = handler ? await handler(seen) : refuse(404, "NOT_FOUND", "Not found.")
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
  }

  return {
    fetch,
    requests,
    on(route: string, handler: Handler) {
      routes.set(route, handler)
    },
    calls(route: string) {
      return requests.filter((request) => `${request.method} ${request.path}` === route)
    }
  }
}

/**
 * A site component test's fresh start: no toast (sonner keeps them in module state and replays them to a new
 * <Toaster>), no session, the API answered by `fetch`, and a window.scrollTo happy-dom lacks.
 */
export function resetSiteForTest(fetch: typeof globalThis.fetch): void {
  toast.dismiss()
  teardownSession()
  configureApi({ baseUrl: "http://api.test", fetch })
  useSession.setState({ status: "loading", user: null, loggingOut: false })
  window.scrollTo = vi.fn() as typeof window.scrollTo
}
