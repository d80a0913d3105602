import { Link } from "react-router"

import { COMPANY, formatAddress, PRODUCT_NAME } from "~core/company"
import { Logo } from "~ui/Logo"
import { GitHubIcon, LinkedInIcon, XIcon, YouTubeIcon } from "~ui/SocialIcons"
import { FOOTER_GROUPS } from "~site/shared/navigation"

const SOCIAL_LINKS = [
  { label: "X (Twitter)", href: COMPANY.social.x.url, Icon: XIcon },
  { label: "GitHub", href: COMPANY.social.github.url, Icon: GitHubIcon },
  { label: "LinkedIn", href: COMPANY.social.linkedin.url, Icon: LinkedInIcon },
  { label: "YouTube", href: COMPANY.social.youtube.url, Icon: YouTubeIcon }
] as const

export function Footer({ year = new Date().getFullYear() }: { year?: number }) {
  return (
    <footer className="border-t border-gray-800 bg-brand-secondary text-gray-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-5 lg:px-8">
        <div className="md:col-span-2">
          <div className="inline-flex rounded-lg bg-white px-3 py-2">
            <Logo />
          </div>
          <p className="mt-4 max-w-sm text-sm leading-6">{COMPANY.tagline}</p>
          <address className="mt-3 max-w-sm text-xs not-italic leading-5 text-gray-400">{formatAddress()}</address>
          <ul className="mt-4 flex gap-3" aria-label="Social links">
            {SOCIAL_LINKS.map(({ label, href, Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={label}
                  className="inline-flex rounded-md p-2 text-gray-300 transition hover:bg-white/10 hover:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-white"
                >
                  <Icon className="h-5 w-5" />
                </a>
              </li>
            ))}
          </ul>
        </div>
        {FOOTER_GROUPS.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{group.title}</h2>
            <ul className="mt-4 space-y-3">
              {group.links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className="text-sm transition hover:text-white focus-visible:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-gray-400 sm:px-6 lg:px-8">
          © {year} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  )
}
