import { answerMessage, type MessageSender } from "~extension/messaging/message-dispatch"

import { siteMessageRoute } from "./site-messages"

/** One message through the site's route, as the worker's listeners run it, with the test's fetch. */
export function handleSiteMessage(raw: unknown, sender: MessageSender = {}, fetchImpl: typeof fetch = fetch) {
  return Promise.resolve(answerMessage(siteMessageRoute(fetchImpl), raw, sender))
}
