import { COMPANY, formatAddress, PRODUCT_NAME } from "~core/company"
import { SUPPORT_REPLY_HOURS } from "~core/billing/plans"
import { PLANS } from "~core/billing/plans"
import { Heart, Lightbulb, ShieldCheck, Target, Users } from "~ui/icons"
import { CallToActionLinks } from "~site/shared/page-parts/CallToAction"
import { initialsOf } from "~site/shared/page-parts/initials"
import { PageSection } from "~site/shared/page-parts/PageSection"
import { PointGrid } from "~site/shared/page-parts/PointGrid"
import { PageTitle } from "~site/shared/PageTitle"

const VALUES = [
  {
    title: "Privacy first",
    description: "Analysis that can run on your device does run on your device. An image leaves your browser only when you ask the vision model about it.",
    Icon: ShieldCheck
  },
  {
    title: "Useful, not flashy",
    description: "We build the features people use every day: copying text out of images, counting faces, naming objects, answering plain questions.",
    Icon: Lightbulb
  },
  {
    title: "Open with people",
    description: `Clear prices, no dark patterns, and a real person answering support within ${SUPPORT_REPLY_HOURS} hours.`,
    Icon: Heart
  }
] as const

const TEAM = [
  { name: "Ananya Krishnan", role: "Co-founder, product", bio: "Spent eight years building accessibility tools and wanted images on the web to be as searchable as text." },
  { name: "Rahul Menon", role: "Co-founder, engineering", bio: "Works on the extension and the on-device models that keep analysis fast and private." },
  { name: "Sofia Alvarez", role: "Machine learning", bio: "Tunes text extraction and object recognition so they run well on an ordinary laptop." },
  { name: "Karthik Rao", role: "Customer support", bio: "Reads every message that reaches support and turns the common ones into fixes and help articles." }
] as const

// Figures from the product itself rather than invented user numbers.
const IMPACT = [
  { value: "6", label: "kinds of image analysis" },
  { value: "3", label: "of them run fully on your device" },
  { value: String(PLANS.length), label: "simple plans, one of them free" },
  { value: `${SUPPORT_REPLY_HOURS} h`, label: "support reply promise" }
] as const

/** Why the company exists and where it is going: two cards side by side. */
const AIMS = [
  {
    title: "Our mission",
    text: "To make every image on the web as easy to read, search and question as the text around it, without asking people to give up their privacy.",
    Icon: Target
  },
  {
    title: "Our vision",
    text: "A browser where a screenshot, a chart or a product photo is never a dead end: you point at it, and you understand it.",
    Icon: Users
  }
] as const

export default function AboutPage() {
  return (
    <>
      <PageTitle title="About" />
      <section className="bg-gradient-to-b from-white to-blue-50 px-4 py-16 text-center sm:px-6 lg:px-8">
        <h1 className="text-4xl font-bold tracking-tight">About {PRODUCT_NAME}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-gray-600">{COMPANY.description}</p>
      </section>

      <section className="mx-auto grid max-w-5xl gap-6 px-4 py-16 sm:px-6 md:grid-cols-2 lg:px-8">
        {AIMS.map(({ title, text, Icon }) => (
          <div key={title} className="rounded-2xl border border-gray-200 bg-white p-8 shadow-sm">
            <Icon aria-hidden="true" className="h-8 w-8 text-brand-primary" />
            <h2 className="mt-4 text-2xl font-bold">{title}</h2>
            <p className="mt-3 leading-7 text-gray-700">{text}</p>
          </div>
        ))}
      </section>

      <PageSection headingId="values-heading" title="Our values" className="bg-gray-50 px-4 py-16 sm:px-6 lg:px-8">
        <PointGrid look="value" points={VALUES} className="mx-auto mt-10 grid max-w-6xl gap-6 md:grid-cols-3" />
      </PageSection>

      <PageSection headingId="team-heading" title="Our team" className="px-4 py-16 sm:px-6 lg:px-8">
        <ul className="mx-auto mt-10 grid max-w-6xl gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {TEAM.map((member) => (
            <li key={member.name} className="rounded-2xl border border-gray-200 bg-white p-6 text-center shadow-sm">
              <span aria-hidden="true" className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-blue-100 text-xl font-bold text-blue-800">
                {initialsOf(member.name)}
              </span>
              <h3 className="mt-4 font-semibold">{member.name}</h3>
              <p className="text-sm text-emerald-800">{member.role}</p>
              <p className="mt-2 text-sm leading-6 text-gray-600">{member.bio}</p>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection
        headingId="impact-heading"
        title={`${PRODUCT_NAME} in numbers`}
        className="bg-brand-secondary px-4 py-16 text-white sm:px-6 lg:px-8"
      >
        <dl className="mx-auto mt-10 grid max-w-5xl grid-cols-2 gap-6 text-center md:grid-cols-4">
          {IMPACT.map((figure) => (
            <div key={figure.label} className="flex flex-col">
              <dt className="order-last text-sm text-gray-300">{figure.label}</dt>
              <dd className="text-4xl font-bold">{figure.value}</dd>
            </div>
          ))}
        </dl>
      </PageSection>

      <section className="px-4 py-16 text-center sm:px-6 lg:px-8">
        <h2 className="text-2xl font-bold tracking-tight">Try it on the pages you read today</h2>
        <p className="mx-auto mt-3 max-w-xl text-gray-600">
          Questions first? Write to{" "}
          <a href={`mailto:${COMPANY.contact.support.email}`} className="font-medium text-blue-700 hover:underline">
            {COMPANY.contact.support.email}
          </a>{" "}
          or call {COMPANY.contact.phone.phone}.
        </p>
        <address className="mx-auto mt-2 max-w-xl text-sm not-italic text-gray-600">
          {COMPANY.legalName}, {formatAddress()}
        </address>
        <CallToActionLinks
          className="mt-8"
          primary={{ to: "/register", label: "Create a free account" }}
          secondary={{ to: "/pricing", label: "See pricing" }}
        />
      </section>
    </>
  )
}
