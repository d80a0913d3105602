// Plasmo writes the extension's HTML pages without a lang attribute; screen readers need it.
// Imported for its effect by every extension page entry (side panel, popup, tab pages).
document.documentElement.lang = "en"
