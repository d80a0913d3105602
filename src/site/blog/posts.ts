/**
 * The blog's posts: hard-coded content, written about this product. This module is imported only by
 * the blog's pages, so it is part of their lazy chunk and never of the landing page's load.
 */
import { FREE_TRIAL_DAYS, MONEY_BACK_GUARANTEE_DAYS, SUPPORT_REPLY_HOURS } from "~core/plans"
import { getPlan } from "~core/plans"

export type PostBlock = { heading: string } | { paragraph: string } | { list: readonly string[] }

export interface BlogCategory {
  name: string
  slug: string
}

export interface BlogPost {
  id: string
  title: string
  slug: string
  excerpt: string
  content: readonly PostBlock[]
  /** Palette and motif of the generated cover image. */
  cover: { from: string; to: string; motif: "scan" | "shield" | "grid" | "bubbles" | "faces" | "tiers" | "spark" }
  author: { name: string; role: string; bio: string }
  category: BlogCategory
  tags: readonly string[]
  publishedAt: string
  updatedAt: string
  featured?: boolean
  seo: { metaTitle: string; metaDescription: string }
}

export const BLOG_CATEGORIES = {
  product: { name: "Product updates", slug: "product-updates" },
  guides: { name: "Guides", slug: "guides" },
  privacy: { name: "Privacy & security", slug: "privacy-security" },
  engineering: { name: "Behind the scenes", slug: "behind-the-scenes" }
} as const satisfies Record<string, BlogCategory>

const AUTHORS = {
  ananya: {
    name: "Ananya Krishnan",
    role: "Co-founder, product",
    bio: "Ananya leads product at Image Query AI. She spent eight years on accessibility tools before starting the company."
  },
  rahul: {
    name: "Rahul Menon",
    role: "Co-founder, engineering",
    bio: "Rahul builds the extension and the on-device analysis that keeps it fast and private."
  },
  sofia: {
    name: "Sofia Alvarez",
    role: "Machine learning",
    bio: "Sofia tunes the text, face and object models so they run well on an ordinary laptop."
  },
  karthik: {
    name: "Karthik Rao",
    role: "Customer support",
    bio: "Karthik answers the messages that reach support and turns the common ones into fixes and help articles."
  }
} as const

const pro = getPlan("pro")
const enterprise = getPlan("enterprise")
const free = getPlan("free")
const freeRequests = free.requestLimit.kind === "monthly" ? free.requestLimit.requests : 0

export const BLOG_POSTS: readonly BlogPost[] = [
  {
    id: "1",
    slug: "introducing-image-query-ai",
    title: "Introducing Image Query AI: ask questions about any image on the web",
    excerpt:
      "A browser extension that finds every image on the page you are reading and lets you extract text, detect faces and objects, or simply ask what you are looking at.",
    cover: { from: "#3B82F6", to: "#1E3A8A", motif: "spark" },
    author: AUTHORS.ananya,
    category: BLOG_CATEGORIES.product,
    tags: ["launch", "extension", "vision model"],
    publishedAt: "2026-09-02",
    updatedAt: "2026-09-02",
    featured: true,
    seo: {
      metaTitle: "Introducing Image Query AI – ask questions about any image",
      metaDescription:
        "Image Query AI is a browser extension that finds the images on any page and analyses them: text extraction, face and object detection on your device, and answers from a vision model."
    },
    content: [
      {
        paragraph:
          "The web is full of images that hold information we cannot easily use: screenshots of error messages, slides from a talk, charts in a report, product photos, scanned forms. Text around an image can be searched and copied. The image itself is usually a dead end. Image Query AI is our attempt to change that."
      },
      { heading: "What it does" },
      {
        paragraph:
          "Image Query AI is a browser extension. Open any page and it lists every image on it in a side panel, with its size and where it came from. Pick one, or right-click an image and choose Analyse image, and you can:"
      },
      {
        list: [
          "extract the text inside it, ready to copy;",
          "find the faces in it, with a box around each;",
          "name the objects and describe the scene;",
          "ask a question in plain words and get an answer from a vision model."
        ]
      },
      { heading: "Local first" },
      {
        paragraph:
          "Text extraction, face detection and object detection run on your own computer, inside the extension. The image never leaves your browser for those. Only a question to the vision model sends the image to our API, and only for that one answer."
      },
      { heading: "Getting started" },
      {
        paragraph: `Create a free account, install the extension and sign in on this site: the extension picks up your session by itself. The Free plan includes ${freeRequests} questions to the vision model a month and unlimited local analysis. If you need more, Pro removes the limit and starts with a ${FREE_TRIAL_DAYS}-day free trial.`
      },
      {
        paragraph:
          "We would love to hear what you use it for. The feedback form on our home page reaches the whole team, and we read every message."
      }
    ]
  },
  {
    id: "2",
    slug: "how-ocr-works",
    title: "How on-device text extraction works",
    excerpt:
      "What happens between clicking Extract text and seeing the words of a screenshot: finding lines, recognising characters, and why it all runs on your computer.",
    cover: { from: "#10B981", to: "#065F46", motif: "scan" },
    author: AUTHORS.sofia,
    category: BLOG_CATEGORIES.engineering,
    tags: ["ocr", "on-device", "performance"],
    publishedAt: "2026-09-16",
    updatedAt: "2026-10-01",
    seo: {
      metaTitle: "How on-device OCR works in Image Query AI",
      metaDescription:
        "A look inside Image Query AI's text extraction: the OCR engine that ships inside the extension, how it reads lines of text, and why nothing is uploaded."
    },
    content: [
      {
        paragraph:
          "Optical character recognition, or OCR, turns the pixels of an image into text you can copy. In Image Query AI it is the most used feature by far, and it runs entirely inside the extension."
      },
      { heading: "The engine ships with the extension" },
      {
        paragraph:
          "The OCR engine and its English language model are part of the extension package. Nothing is downloaded when you first use it, and nothing is fetched from a server while it works. That is why text extraction also works on pages behind a login or on an intranet."
      },
      { heading: "From pixels to lines" },
      {
        paragraph:
          "Recognition happens in stages. The image is first converted to grey and its contrast evened out, so text on a busy background stands out. The engine then finds blocks of text, splits them into lines and the lines into words, and only then recognises the characters of each word with a neural network trained on printed text."
      },
      {
        list: [
          "Screenshots and slides give the best results: sharp, high-contrast text.",
          "Photos of printed pages work well when the text is straight and in focus.",
          "Handwriting and very small text are hard for any OCR engine; ask the vision model instead."
        ]
      },
      { heading: "Fast the second time" },
      {
        paragraph:
          "Starting the engine takes a moment the first time in a browser session, because its model has to be loaded into memory. After that it stays ready, and a typical screenshot is read in well under a second on an ordinary laptop."
      }
    ]
  },
  {
    id: "3",
    slug: "privacy-by-design-local-analysis",
    title: "Why most of your image analysis never leaves your browser",
    excerpt:
      "Three of our four analysis features run on your device. Here is how we decided what runs locally, what goes to the vision model, and what we keep.",
    cover: { from: "#1F2937", to: "#3B82F6", motif: "shield" },
    author: AUTHORS.rahul,
    category: BLOG_CATEGORIES.privacy,
    tags: ["privacy", "on-device", "security"],
    publishedAt: "2026-09-30",
    updatedAt: "2026-09-30",
    seo: {
      metaTitle: "Privacy by design: local image analysis in Image Query AI",
      metaDescription:
        "Text extraction, face and object detection run inside the Image Query AI extension. Learn what is sent to the vision model, when, and what we store."
    },
    content: [
      {
        paragraph:
          "Images say a lot about the people who look at them and the people in them. When we designed Image Query AI, we set a simple rule: if an analysis can run well on your device, it runs on your device."
      },
      { heading: "What stays on your computer" },
      {
        list: [
          "Text extraction (OCR): the engine is part of the extension.",
          "Face detection: the model finds faces locally and draws boxes; no face data is uploaded.",
          "Object and scene recognition: a compact model names common objects without a network call."
        ]
      },
      { heading: "What goes to the vision model" },
      {
        paragraph:
          "Answering an open question about an image needs a large vision model that does not fit in a browser. When you ask one, the extension sends that image and your question to our API, which forwards them to the model and returns the answer. We count the request for your monthly limit; we do not keep the image."
      },
      { heading: "Your account" },
      {
        paragraph:
          "Your password is stored only as an argon2id hash. The site keeps your session in your browser's local storage, loads no third-party analytics and sets no tracking cookies. You can delete your account from the dashboard at any time, and everything tied to it is removed at once."
      }
    ]
  },
  {
    id: "4",
    slug: "finding-every-image-on-a-page",
    title: "Finding every image on a page is harder than it looks",
    excerpt:
      "Responsive images, CSS backgrounds, shadow roots, frames and lazy loading: how the extension builds a complete list of the images you can see.",
    cover: { from: "#6366F1", to: "#312E81", motif: "grid" },
    author: AUTHORS.rahul,
    category: BLOG_CATEGORIES.engineering,
    tags: ["extension", "web platform", "performance"],
    publishedAt: "2026-10-14",
    updatedAt: "2026-10-14",
    seo: {
      metaTitle: "How Image Query AI finds every image on a web page",
      metaDescription:
        "Plain img tags are only the start. How the Image Query AI extension finds responsive images, CSS backgrounds, images in shadow roots and frames, and late-loading images."
    },
    content: [
      {
        paragraph:
          "Ask a developer how to list the images of a page and the first answer is usually document.images. On a modern site that finds a fraction of what you see."
      },
      { heading: "Where images hide" },
      {
        list: [
          "Responsive images pick one of several files with srcset and picture; we report the file the browser actually chose.",
          "Many hero images and thumbnails are CSS backgrounds, not img elements.",
          "Web components keep their markup in shadow roots, invisible to ordinary queries.",
          "Embedded frames carry their own documents and their own images.",
          "Infinite feeds add images long after the page has loaded."
        ]
      },
      { heading: "An index that keeps up" },
      {
        paragraph:
          "The extension's content script builds an index once and then watches the page for changes, so images that arrive while you scroll appear in the side panel within moments. It ignores its own elements and tiny tracking pixels, and it does this incrementally, so even pages with thousands of images stay responsive."
      },
      { heading: "Filters that match what you mean" },
      {
        paragraph:
          "Icons and spacers are rarely what you want to analyse. The Hide small images filter, on by default, hides images under 400 pixels on either side, and the size filter sorts the rest into small, medium and large."
      }
    ]
  },
  {
    id: "5",
    slug: "asking-better-questions-about-images",
    title: "Five ways to ask better questions about an image",
    excerpt:
      "The vision model answers plain questions, but a few habits make its answers sharper: be specific, give context, and ask for the format you need.",
    cover: { from: "#F59E0B", to: "#B45309", motif: "bubbles" },
    author: AUTHORS.ananya,
    category: BLOG_CATEGORIES.guides,
    tags: ["vision model", "tips", "questions"],
    publishedAt: "2026-10-28",
    updatedAt: "2026-10-28",
    seo: {
      metaTitle: "Five tips for asking better questions about images",
      metaDescription:
        "Get sharper answers from Image Query AI's vision model: be specific, add context, ask for a format, split big questions and check what matters."
    },
    content: [
      {
        paragraph:
          "Visual question answering feels like magic the first time: you ask what a chart shows and you get a sentence back. These five habits make the answers more useful."
      },
      { heading: "1. Be specific" },
      { paragraph: "Instead of \"What is this?\", ask \"Which month has the highest value in this chart?\". A narrow question gets a precise answer." },
      { heading: "2. Give context the image lacks" },
      { paragraph: "Tell the model what you already know: \"This is a floor plan of a flat in Pune; how many bedrooms does it have?\"" },
      { heading: "3. Ask for the format you need" },
      { paragraph: "Say \"as a bulleted list\", \"in one sentence\" or \"as a table with two columns\" and the answer arrives ready to paste." },
      { heading: "4. Split big questions" },
      {
        paragraph:
          "Several small questions beat one long one. On the Free plan each question counts towards your monthly requests, so it is worth starting with the one that matters most."
      },
      { heading: "5. Check what matters" },
      {
        paragraph:
          "Vision models are good but not infallible, especially with small text or unusual diagrams. For exact figures, run text extraction first and compare. It is local, free and unlimited."
      }
    ]
  },
  {
    id: "6",
    slug: "face-and-object-detection-explained",
    title: "Face and object detection, explained without the jargon",
    excerpt:
      "What the boxes mean, how confident the models are, and what face detection does not do: it finds faces, it does not identify strangers.",
    cover: { from: "#EC4899", to: "#9D174D", motif: "faces" },
    author: AUTHORS.sofia,
    category: BLOG_CATEGORIES.guides,
    tags: ["faces", "objects", "on-device"],
    publishedAt: "2026-11-05",
    updatedAt: "2026-11-05",
    seo: {
      metaTitle: "Face and object detection in Image Query AI, explained",
      metaDescription:
        "How Image Query AI finds faces and objects in images on your own device, what the boxes and scores mean, and what the models deliberately do not do."
    },
    content: [
      {
        paragraph:
          "Two of Image Query AI's analyses draw boxes on an image: face detection and object detection. Both run locally, and both are easier to use well once you know what they measure."
      },
      { heading: "Detection, not identification" },
      {
        paragraph:
          "Face detection answers \"where are the faces in this picture?\". It does not look anyone up and has no database of people. Each box comes with a score between 0 and 1 that says how sure the model is."
      },
      { heading: "Objects and scenes" },
      {
        paragraph:
          "Object detection recognises common things (people, vehicles, animals, furniture, food, everyday objects) and puts a labelled box around each one. Together the labels give a quick description of the scene, useful for checking product photos or skimming an image-heavy page."
      },
      { heading: "Getting good results" },
      {
        list: [
          "Larger images give better results; use the size filter to pick them.",
          "Very small or heavily cropped faces may be missed.",
          "Low scores are worth a second look; the vision model can settle doubtful cases."
        ]
      }
    ]
  },
  {
    id: "7",
    slug: "choosing-the-right-plan",
    title: "Free, Pro or Enterprise: choosing the right plan",
    excerpt: `What each plan includes, when the ${freeRequests} free questions a month are enough, and how the ${FREE_TRIAL_DAYS}-day trial and ${MONEY_BACK_GUARANTEE_DAYS}-day guarantee work.`,
    cover: { from: "#0EA5E9", to: "#0C4A6E", motif: "tiers" },
    author: AUTHORS.karthik,
    category: BLOG_CATEGORIES.product,
    tags: ["pricing", "plans", "billing"],
    publishedAt: "2026-11-18",
    updatedAt: "2026-11-18",
    seo: {
      metaTitle: "Choosing an Image Query AI plan: Free, Pro or Enterprise",
      metaDescription:
        "Compare Image Query AI's Free, Pro and Enterprise plans: request limits, prices, annual savings, the free trial and the money-back guarantee."
    },
    content: [
      {
        paragraph:
          "The question we answer most in support is which plan to pick. The short version: start on Free, and move up when the vision model becomes part of your day."
      },
      { heading: "Free" },
      {
        paragraph: `Free costs nothing and includes ${freeRequests} questions to the vision model a month, plus unlimited local text extraction, face and object detection. For occasional use it is all you need.`
      },
      { heading: "Pro" },
      {
        paragraph: `Pro costs $${pro.price} a month, or $${pro.annualPrice} a year, which saves 20%. It removes the monthly limit on questions and adds API access and priority support. It starts with a ${FREE_TRIAL_DAYS}-day free trial, no card required.`
      },
      { heading: "Enterprise" },
      {
        paragraph: `Enterprise costs $${enterprise.price} a month or $${enterprise.annualPrice} a year and is built for teams: custom request limits, team management, white-label options, an SLA and a dedicated contact.`
      },
      { heading: "Changing your mind" },
      {
        paragraph: `You can upgrade or downgrade from the Pricing page at any time. Every payment is covered by a ${MONEY_BACK_GUARANTEE_DAYS}-day money-back guarantee, and support answers billing questions within ${SUPPORT_REPLY_HOURS} hours.`
      }
    ]
  }
]

const WORDS_PER_MINUTE = 200

function wordsOf(block: PostBlock): number {
  const text = "heading" in block ? block.heading : "paragraph" in block ? block.paragraph : block.list.join(" ")
  return text.split(/\s+/).filter(Boolean).length
}

/** Minutes to read a post, from its word count. */
export function readTimeMinutes(post: BlogPost): number {
  const words = post.content.reduce((sum, block) => sum + wordsOf(block), 0)
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE))
}

/** The post at /blog/{slug or id}. */
export function findPost(slugOrId: string | undefined, posts: readonly BlogPost[] = BLOG_POSTS): BlogPost | undefined {
  return posts.find((post) => post.slug === slugOrId || post.id === slugOrId)
}

/** Posts whose title, excerpt, tags or category contain the query, in the chosen category (null for all). */
export function searchPosts(posts: readonly BlogPost[], query: string, categorySlug: string | null): BlogPost[] {
  const needle = query.trim().toLowerCase()
  return posts.filter(
    (post) =>
      (categorySlug === null || post.category.slug === categorySlug) &&
      (needle === "" ||
        [post.title, post.excerpt, post.category.name, ...post.tags].some((text) => text.toLowerCase().includes(needle)))
  )
}

/** Up to `count` other posts, those sharing the category or most tags first, newest first among equals. */
export function relatedPosts(post: BlogPost, posts: readonly BlogPost[] = BLOG_POSTS, count = 3): BlogPost[] {
  const score = (other: BlogPost) =>
    (other.category.slug === post.category.slug ? 2 : 0) + other.tags.filter((tag) => post.tags.includes(tag)).length
  return posts
    .filter((other) => other.id !== post.id)
    .sort((a, b) => score(b) - score(a) || b.publishedAt.localeCompare(a.publishedAt))
    .slice(0, count)
}

/** Newest first. */
export const sortedPosts = (posts: readonly BlogPost[] = BLOG_POSTS) =>
  [...posts].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))
