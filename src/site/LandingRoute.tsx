/**
 * /, composed at the app's level: the landing page with the feedback form. A feature imports no other but through
 * shared/ (eslint.config.js); the app wires them.
 */
import { FeedbackForm } from "./feedback/FeedbackForm"
import { LandingPage, type LandingParts } from "./landing/LandingPage"

const PARTS: LandingParts = { FeedbackForm }

export default function LandingRoute() {
  return <LandingPage parts={PARTS} />
}
