import type { ComponentType } from "react"

import { COMPANY, PRODUCT_NAME } from "~core/company"
import { SUPPORT_REPLY_HOURS } from "~core/billing/plans"
import { getPlan } from "~core/billing/plans"
import { Eye, Image, Lock, MessageSquareText, ScanFace, ScanText } from "~ui/icons"
import { CallToActionBand, CallToActionLinks } from "~site/shared/page-parts/CallToAction"
import { PageSection } from "~site/shared/page-parts/PageSection"
import { PointGrid } from "~site/shared/page-parts/PointGrid"
import { PageTitle } from "~site/shared/PageTitle"

const FEATURES = [
  {
    title: "Image detection on any webpage",
    description: "Every picture on the page is found for you, including lazy-loaded, background and late images.",
    Icon: Image
  },
  {
    title: "AI visual question answering",
    description: "Ask a question about an image in plain words and get an answer from a vision model.",
    Icon: MessageSquareText
  },
  {
    title: "Face detection and recognition",
    description: "Find the faces in a photo, with boxes and counts, computed on your own device.",
    Icon: ScanFace
  },
  {
    title: "Text extraction (OCR)",
    description: "Read the text inside screenshots, diagrams and scans, ready to copy.",
    Icon: ScanText
  },
  {
    title: "Object and scene recognition",
    description: "See which objects an image holds and get a short description of the scene.",
    Icon: Eye
  },
  {
    title: "Private and secure analysis",
    description: "Text, faces and objects are analysed locally; images leave your browser only when you ask a question.",
    Icon: Lock
  }
] as const

const freeLimit = getPlan("free").requestLimit
const FREE_MONTHLY_REQUESTS = freeLimit.kind === "monthly" ? freeLimit.requests : 0

const STEPS = [
  { title: "Detect images", description: "Open any web page. Image Query AI lists every image on it in the side panel, with sizes and filters." },
  { title: "Select analysis", description: "Right-click an image and choose Analyse image, or pick one in the panel: text, faces, objects or a question." },
  { title: "Get results", description: "Read the text, see the boxes drawn on the image, or the vision model's answer, and copy what you need." }
] as const

const TESTIMONIALS = [
  {
    quote: "I copy text out of screenshots and slides every day. Right-click, Analyse image, done: no more retyping.",
    name: "Priya Raman",
    role: "Product manager, Bengaluru"
  },
  {
    quote: "Checking product photos for the right logo and objects used to take me an afternoon. Now it is a few clicks per page.",
    name: "Daniel Okafor",
    role: "E-commerce quality lead"
  },
  {
    quote: "Asking a question about a chart and getting a plain answer has made research reading much faster for my students.",
    name: "Dr. Meera Iyer",
    role: "Lecturer in data journalism"
  }
] as const

/** The column of the landing page's full-width bands. */
const BAND_COLUMN = "mx-auto max-w-7xl px-4 sm:px-6 lg:px-8"

/** The part of another feature the page shows; the app composes it in (src/site/LandingRoute.tsx). */
export interface LandingParts {
  FeedbackForm: ComponentType
}

export function LandingPage({ parts: { FeedbackForm } }: { parts: LandingParts }) {
  return (
    <>
      <PageTitle />
      <section className="bg-gradient-to-b from-white to-blue-50">
        <div className="mx-auto max-w-7xl px-4 py-20 text-center sm:px-6 lg:px-8 lg:py-28">
          <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
            Understand every image on the web with {PRODUCT_NAME}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-gray-600">{COMPANY.description}</p>
          <CallToActionLinks
            className="mt-10"
            primary={{ to: "/register", label: "Install Extension" }}
            secondary={{ to: "/pricing", label: "View Pricing" }}
          />
        </div>
      </section>

      <PageSection id="features" headingId="features-heading" title="Features" className="scroll-mt-20 bg-white py-20" column={BAND_COLUMN}>
        <PointGrid look="feature" points={FEATURES} className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" />
      </PageSection>

      <PageSection headingId="how-heading" title="How it works" className="bg-gray-50 py-20" column={BAND_COLUMN}>
        <PointGrid look="step" points={STEPS} className="mt-12 grid gap-6 md:grid-cols-3" />
      </PageSection>

      <PageSection headingId="testimonials-heading" title="What people say" className="bg-white py-20" column={BAND_COLUMN}>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map(({ quote, name, role }) => (
            <li key={name}>
              <figure className="h-full rounded-2xl border border-gray-200 bg-gray-50 p-6">
                <blockquote className="text-sm leading-6 text-gray-700">“{quote}”</blockquote>
                <figcaption className="mt-4 text-sm">
                  <span className="font-semibold">{name}</span>
                  <span className="block text-gray-500">{role}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection
        id="feedback"
        headingId="feedback-heading"
        title="Tell us what you think"
        className="scroll-mt-20 bg-gray-50 py-20"
        column="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8"
      >
        <p className="mt-4 text-center text-gray-600">
          Ideas, problems or praise: send them here, with screenshots if they help. We reply within {SUPPORT_REPLY_HOURS} hours.
        </p>
        <FeedbackForm />
      </PageSection>

      <CallToActionBand
        headingId="cta-heading"
        title="Start seeing more in every image"
        className="bg-brand-secondary py-20 text-white"
        column="mx-auto max-w-3xl px-4 text-center sm:px-6 lg:px-8"
        primary={{ to: "/register", label: "Get started free" }}
        secondary={{ to: "/pricing", label: "Compare plans" }}
      >
        <p className="mt-4 text-gray-300">
          Free for {FREE_MONTHLY_REQUESTS} AI requests a month. Text, faces and objects are always free and stay on your device.
        </p>
      </CallToActionBand>
    </>
  )
}
