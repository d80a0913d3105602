/**
 * /organization, composed at the app's level: the organisation's page with the webhooks card, the dashboard's too.
 * A feature imports no other but through shared/ (eslint.config.js); the app wires them.
 */
import { OrganizationPage, type OrganizationCards } from "./organization/OrganizationPage"
import { WebhooksCard } from "./webhooks/WebhooksCard"

const CARDS: OrganizationCards = { WebhooksCard }

export default function OrganizationRoute() {
  return <OrganizationPage cards={CARDS} />
}
