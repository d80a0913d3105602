import { COMPANY } from "~core/company"
import { SESSION_STORAGE_KEYS } from "~core/user"
import { LEGAL_LAST_UPDATED, type LegalDocumentContent } from "~site/shared/legal/legal-content"

const product = COMPANY.displayName
const keys = Object.values(SESSION_STORAGE_KEYS)

/** The Cookie Policy: static text; the page adds the contact link and the back button. */
export const COOKIE_POLICY: LegalDocumentContent = {
  title: "Cookie Policy",
  lastUpdated: LEGAL_LAST_UPDATED,
  intro: `This policy explains which cookies and similar browser storage ${product} uses on this site and in the browser extension, why, and how you can control them.`,
  sections: [
    {
      title: "What cookies and browser storage are",
      paragraph:
        "Cookies are small text files a web site asks your browser to keep and send back on later visits. Local storage is a similar place in your browser where a site keeps data that is never sent with requests on its own. We treat both the same way in this policy."
    },
    {
      title: "What we keep in your browser",
      paragraph: `To keep you signed in, the site stores three items in your browser's local storage (${keys.join(", ")}):`,
      items: [
        "a short-lived access token that proves you are signed in (it expires after one hour);",
        "a refresh token that renews the access token while you use the site;",
        "your user record: your name, e-mail address, role and plan, so pages can show them without asking the server."
      ]
    },
    {
      title: "What we do not use",
      paragraph:
        "We use no advertising cookies, no tracking pixels and no third-party analytics. No script from another company is loaded on our pages, and we never sell data about your visits."
    },
    {
      title: "How long items are kept",
      paragraph:
        "Cookies that web sites set are typically kept for 30 days to 2 years. Ours are shorter-lived: the session items are deleted when you log out, when you delete your account, or when your session expires and cannot be renewed."
    },
    {
      title: "Your choices",
      paragraph:
        "You can clear this site's data at any time in your browser's settings. Blocking local storage for this site stops you from staying signed in, but the public pages keep working.",
      items: [
        "Chrome: Settings → Privacy and security → Third-party cookies → See all site data and permissions.",
        "Firefox: Settings → Privacy & Security → Cookies and Site Data → Manage Data.",
        "Safari: Settings → Privacy → Manage Website Data."
      ]
    },
    {
      title: "Changes to this policy",
      paragraph:
        "If we start using a new kind of cookie or storage, we update this page and the date above before it goes live, and we ask for your consent first where the law requires it."
    }
  ]
}
