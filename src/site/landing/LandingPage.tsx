import { Eye, Image, Lock, MessageSquareText, ScanFace, ScanText } from "~ui/icons"
import { Link } from "react-router"

import { COMPANY, PRODUCT_NAME } from "~core/company"
import { SUPPORT_REPLY_HOURS } from "~core/limits"
import { getPlan } from "~core/plans"
import { buttonStyles } from "~ui/styles"

import { FeedbackForm } from "../feedback/FeedbackForm"
import { PageTitle } from "../PageTitle"

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

export default function LandingPage() {
  return (
    <>
      <PageTitle />
      <section className="bg-gradient-to-b from-white to-blue-50">
        <div className="mx-auto max-w-7xl px-4 py-20 text-center sm:px-6 lg:px-8 lg:py-28">
          <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
            Understand every image on the web with {PRODUCT_NAME}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-gray-600">{COMPANY.description}</p>
          <div className="mt-10 flex flex-wrap justify-center gap-4">
            <Link to="/register" className={buttonStyles.primary}>
              Install Extension
            </Link>
            <Link to="/pricing" className={buttonStyles.secondary}>
              View Pricing
            </Link>
          </div>
        </div>
      </section>

      <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 bg-white py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 id="features-heading" className="text-center text-3xl font-bold tracking-tight">
            Features
          </h2>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map(({ title, description, Icon }) => (
              <li key={title} className="rounded-2xl border border-gray-200 bg-gray-50 p-6">
                <Icon aria-hidden="true" className="h-8 w-8 text-brand-primary" />
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-gray-600">{description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="how-heading" className="bg-gray-50 py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 id="how-heading" className="text-center text-3xl font-bold tracking-tight">
            How it works
          </h2>
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
            {STEPS.map(({ title, description }, index) => (
              <li key={title} className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
                <span aria-hidden="true" className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-accent text-lg font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-gray-600">{description}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="testimonials-heading" className="bg-white py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 id="testimonials-heading" className="text-center text-3xl font-bold tracking-tight">
            What people say
          </h2>
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
        </div>
      </section>

      <section id="feedback" aria-labelledby="feedback-heading" className="scroll-mt-20 bg-gray-50 py-20">
        <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
          <h2 id="feedback-heading" className="text-center text-3xl font-bold tracking-tight">
            Tell us what you think
          </h2>
          <p className="mt-4 text-center text-gray-600">
            Ideas, problems or praise: send them here, with screenshots if they help. We reply within {SUPPORT_REPLY_HOURS} hours.
          </p>
          <FeedbackForm />
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="bg-brand-secondary py-20 text-white">
        <div className="mx-auto max-w-3xl px-4 text-center sm:px-6 lg:px-8">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
            Start seeing more in every image
          </h2>
          <p className="mt-4 text-gray-300">
            Free for {FREE_MONTHLY_REQUESTS} AI requests a month. Text, faces and objects are always free and stay on your device.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-4">
            <Link to="/register" className={buttonStyles.primary}>
              Get started free
            </Link>
            <Link to="/pricing" className="inline-flex items-center justify-center rounded-lg border border-white/30 px-5 py-2.5 text-sm font-semibold text-white hover:bg-white/10">
              Compare plans
            </Link>
          </div>
        </div>
      </section>
    </>
  )
}
