import { LegalPage } from "~site/shared/legal/LegalDocument"
import { TERMS_OF_SERVICE } from "~site/shared/legal/legal-content"

export default function TermsPage() {
  return <LegalPage document={TERMS_OF_SERVICE} />
}
