import type { To } from "react-router"

export interface NavItem {
  label: string
  to: To
}

/** The dashboard's Two-step sign-in card: where the admin panel and an organisation that require it send a person. */
export const TWO_STEP_SECTION_ID = "two-step"
export const TWO_STEP_SETUP: To = { pathname: "/dashboard", hash: `#${TWO_STEP_SECTION_ID}` }

/** Main navigation; Features is the landing page's #features anchor. */
export const MAIN_NAV: readonly NavItem[] = [
  { label: "Home", to: "/" },
  { label: "Features", to: { pathname: "/", hash: "#features" } },
  { label: "Pricing", to: "/pricing" },
  { label: "Blog", to: "/blog" }
]

export interface FooterGroup {
  title: string
  links: readonly NavItem[]
}

export const FOOTER_GROUPS: readonly FooterGroup[] = [
  {
    title: "Company",
    links: [
      { label: "About", to: "/about" },
      { label: "Blog", to: "/blog" }
    ]
  },
  {
    title: "Legal",
    links: [
      { label: "Privacy Policy", to: "/privacy" },
      { label: "Terms of Service", to: "/terms" },
      { label: "Cookie Policy", to: "/cookies" }
    ]
  },
  {
    title: "Support",
    links: [
      { label: "Help Center", to: "/help" },
      { label: "Status", to: "/status" }
    ]
  }
]
