/**
 * /dashboard, composed at the app's level: the dashboard with the cards of other features (API keys, webhooks,
 * two-step sign-in, passkeys). A feature imports no other but through shared/ (eslint.config.js); the app wires them.
 */
import { ApiKeysCard } from "./api-keys/ApiKeysCard"
import { DashboardPage, type DashboardCards } from "./dashboard/DashboardPage"
import { PasskeysCard } from "./two-step/PasskeysCard"
import { TwoStepCard } from "./two-step/TwoStepCard"
import { WebhooksCard } from "./webhooks/WebhooksCard"

const CARDS: DashboardCards = { ApiKeysCard, WebhooksCard, TwoStepCard, PasskeysCard }

export default function DashboardRoute() {
  return <DashboardPage cards={CARDS} />
}
