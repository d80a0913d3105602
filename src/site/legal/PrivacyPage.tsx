import { LegalPage } from "~site/shared/legal/LegalDocument"
import { PRIVACY_POLICY } from "~site/shared/legal/legal-content"

export default function PrivacyPage() {
  return <LegalPage document={PRIVACY_POLICY} />
}
