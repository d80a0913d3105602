import { Eye, Image, Lock, MessageSquareText, ScanFace, ScanText } from "~ui/icons"
import { Link } from "react-router"

import { COMPANY, PRODUCT_NAME } from "~core/company"
import { buttonStyles } from "~ui/styles"

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
    </>
  )
}
