import type { To } from "react-router"

export interface NavItem {
  label: string
  to: To
}

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
