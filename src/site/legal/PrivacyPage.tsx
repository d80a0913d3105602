import { LegalPage } from "./LegalDocument"
import { PRIVACY_POLICY } from "./legal-content"

export default function PrivacyPage() {
  return <LegalPage document={PRIVACY_POLICY} />
}
