import { LegalPage } from "./LegalDocument"
import { TERMS_OF_SERVICE } from "./legal-content"

export default function TermsPage() {
  return <LegalPage document={TERMS_OF_SERVICE} />
}
