import { FREE_TRIAL_DAYS, MONEY_BACK_GUARANTEE_DAYS, SUPPORT_REPLY_HOURS } from "~core/billing/plans"
import { PASSWORD_MIN_LENGTH } from "~core/password-policy/defaults"
import { getPlan } from "~core/billing/plans"

/** The Help Center's built-in FAQ: 12 entries in 4 categories. */

export const HELP_CATEGORIES = ["Getting Started", "Account Management", "Security & Privacy", "Features & Usage"] as const
export type HelpCategory = (typeof HELP_CATEGORIES)[number]

export interface FaqEntry {
  question: string
  answer: string
  category: HelpCategory
}

const free = getPlan("free")
const freeRequests = free.requestLimit.kind === "monthly" ? free.requestLimit.requests : 0

export const HELP_FAQ: readonly FaqEntry[] = [
  {
    category: "Getting Started",
    question: "How do I install the Image Query AI extension?",
    answer:
      "Create an account, then add the extension to Chrome or another Chromium browser. Pin it from the puzzle-piece menu so its icon stays in the toolbar, and sign in on this site: the extension picks up your session by itself."
  },
  {
    category: "Getting Started",
    question: "How do I analyse my first image?",
    answer:
      "Open any web page, right-click a picture and choose Analyse image. The side panel opens with that image selected; pick text extraction, face detection, object detection or type a question."
  },
  {
    category: "Getting Started",
    question: "What does the Free plan include?",
    answer: `The Free plan includes ${freeRequests} questions to the vision model each month, and unlimited local text extraction, face and object detection. Paid plans start with a ${FREE_TRIAL_DAYS}-day free trial.`
  },
  {
    category: "Account Management",
    question: "How do I change my password?",
    answer: `Sign in, open your dashboard and choose Change password. Your new password needs at least ${PASSWORD_MIN_LENGTH} characters with upper and lower case letters, a digit and a special character. Other signed-in devices are signed out.`
  },
  {
    category: "Account Management",
    question: "How do I upgrade, downgrade or cancel my plan?",
    answer: `Go to the Pricing page while signed in: each plan shows Upgrade or Downgrade next to your current one. If you cancel within ${MONEY_BACK_GUARANTEE_DAYS} days of paying, you get a full refund.`
  },
  {
    category: "Account Management",
    question: "How do I delete my account?",
    answer:
      "Open your dashboard, choose Delete account, and type your e-mail address and your current password to confirm. Your account, sessions and history are removed at once and cannot be restored."
  },
  {
    category: "Security & Privacy",
    question: "Are my images uploaded to your servers?",
    answer:
      "Text extraction, face detection and object detection run on your own device, so those images never leave your browser. An image is sent only when you ask the vision model a question about it, and only for that answer."
  },
  {
    category: "Security & Privacy",
    question: "How is my password protected?",
    answer:
      "We store only a slow, salted hash of your password (argon2id), never the password itself. Repeated failed sign-ins lock the account for a while, and a reset link works once and expires after an hour."
  },
  {
    category: "Security & Privacy",
    question: "Do you use tracking cookies or sell my data?",
    answer:
      "No. The site keeps your session in your browser's local storage, loads no third-party analytics and never sells personal data. Our Cookie Policy and Privacy Policy explain the details."
  },
  {
    category: "Features & Usage",
    question: "Which images can the extension find on a page?",
    answer:
      "It finds ordinary images, responsive images with several sizes, CSS background images, images inside frames and open shadow roots, and images that load late while you scroll. Tiny icons can be hidden with the Hide small images filter."
  },
  {
    category: "Features & Usage",
    question: "Which languages does text extraction (OCR) read?",
    answer:
      "The built-in OCR engine reads English text in screenshots, slides, diagrams and scans. The extracted text can be copied with one click, and you can ask the vision model about text in other languages."
  },
  {
    category: "Features & Usage",
    question: "What happens when I reach my monthly request limit?",
    answer: `Questions to the vision model pause until the first day of next month (UTC), while local analysis keeps working. Upgrade to Pro for unlimited requests; we answer questions about limits within ${SUPPORT_REPLY_HOURS} hours.`
  }
]

export interface HelpFilter {
  query: string
  category: HelpCategory | null
}

/** Entries of the chosen category whose question or answer contains the query (any case). */
export function filterFaq(entries: readonly FaqEntry[], { query, category }: HelpFilter): FaqEntry[] {
  const needle = query.trim().toLowerCase()
  return entries.filter(
    (entry) =>
      (category === null || entry.category === category) &&
      (needle === "" || entry.question.toLowerCase().includes(needle) || entry.answer.toLowerCase().includes(needle))
  )
}

/** How many articles each category holds. */
export function categoryCounts(entries: readonly FaqEntry[]): Record<HelpCategory, number> {
  const counts = Object.fromEntries(HELP_CATEGORIES.map((category) => [category, 0])) as Record<HelpCategory, number>
  for (const entry of entries) counts[entry.category] += 1
  return counts
}
