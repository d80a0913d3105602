/**
 * The blog's first posts, written when the blog was sample text compiled into the site, converted to Markdown once
 * and inserted by migration 018. Frozen: the migration's seed must stay what it was when it first ran; posts change
 * through the admin's /admin/content from then on. Figures of the plans are written out as they were then.
 */
import type { BlogCategorySlug } from "~core/admin/blog"

export interface SeedPost {
  slug: string
  title: string
  excerpt: string
  category: BlogCategorySlug
  tags: string[]
  author: { name: string; role: string; bio: string }
  publishedAt: string
  updatedAt: string
  seo: { title: string; description: string }
  content: string
}

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
}

export const SEED_POSTS: SeedPost[] = [
  {
    slug: "introducing-image-query-ai",
    title: "Introducing Image Query AI: ask questions about any image on the web",
    excerpt: "A browser extension that finds every image on the page you are reading and lets you extract text, detect faces and objects, or simply ask what you are looking at.",
    category: "product-updates",
    tags: ["launch", "extension", "vision model"],
    author: AUTHORS.ananya,
    publishedAt: "2026-09-02T09:00:00Z",
    updatedAt: "2026-09-02T09:00:00Z",
    seo: { title: "Introducing Image Query AI – ask questions about any image", description: "Image Query AI is a browser extension that finds the images on any page and analyses them: text extraction, face and object detection on your device, and answers from a vision model." },
    content: `The web is full of images that hold information we cannot easily use: screenshots of error messages, slides from a talk, charts in a report, product photos, scanned forms. Text around an image can be searched and copied. The image itself is usually a dead end. Image Query AI is our attempt to change that.

## What it does

Image Query AI is a browser extension. Open any page and it lists every image on it in a side panel, with its size and where it came from. Pick one, or right-click an image and choose Analyse image, and you can:

- extract the text inside it, ready to copy;
- find the faces in it, with a box around each;
- name the objects and describe the scene;
- ask a question in plain words and get an answer from a vision model.

## Local first

Text extraction, face detection and object detection run on your own computer, inside the extension. The image never leaves your browser for those. Only a question to the vision model sends the image to our API, and only for that one answer.

## Getting started

Create a free account, install the extension and sign in on this site: the extension picks up your session by itself. The Free plan includes 10 questions to the vision model a month and unlimited local analysis. If you need more, Pro removes the limit and starts with a 14-day free trial.

We would love to hear what you use it for. The feedback form on our home page reaches the whole team, and we read every message.`
  },
  {
    slug: "how-ocr-works",
    title: "How on-device text extraction works",
    excerpt: "What happens between clicking Extract text and seeing the words of a screenshot: finding lines, recognising characters, and why it all runs on your computer.",
    category: "behind-the-scenes",
    tags: ["ocr", "on-device", "performance"],
    author: AUTHORS.sofia,
    publishedAt: "2026-09-16T09:00:00Z",
    updatedAt: "2026-10-01T09:00:00Z",
    seo: { title: "How on-device OCR works in Image Query AI", description: "A look inside Image Query AI's text extraction: the OCR engine that ships inside the extension, how it reads lines of text, and why nothing is uploaded." },
    content: `Optical character recognition, or OCR, turns the pixels of an image into text you can copy. In Image Query AI it is the most used feature by far, and it runs entirely inside the extension.

## The engine ships with the extension

The OCR engine and its English language model are part of the extension package. Nothing is downloaded when you first use it, and nothing is fetched from a server while it works. That is why text extraction also works on pages behind a login or on an intranet.

## From pixels to lines

Recognition happens in stages. The image is first converted to grey and its contrast evened out, so text on a busy background stands out. The engine then finds blocks of text, splits them into lines and the lines into words, and only then recognises the characters of each word with a neural network trained on printed text.

- Screenshots and slides give the best results: sharp, high-contrast text.
- Photos of printed pages work well when the text is straight and in focus.
- Handwriting and very small text are hard for any OCR engine; ask the vision model instead.

## Fast the second time

Starting the engine takes a moment the first time in a browser session, because its model has to be loaded into memory. After that it stays ready, and a typical screenshot is read in well under a second on an ordinary laptop.`
  },
  {
    slug: "privacy-by-design-local-analysis",
    title: "Why most of your image analysis never leaves your browser",
    excerpt: "Three of our four analysis features run on your device. Here is how we decided what runs locally, what goes to the vision model, and what we keep.",
    category: "privacy-security",
    tags: ["privacy", "on-device", "security"],
    author: AUTHORS.rahul,
    publishedAt: "2026-09-30T09:00:00Z",
    updatedAt: "2026-09-30T09:00:00Z",
    seo: { title: "Privacy by design: local image analysis in Image Query AI", description: "Text extraction, face and object detection run inside the Image Query AI extension. Learn what is sent to the vision model, when, and what we store." },
    content: `Images say a lot about the people who look at them and the people in them. When we designed Image Query AI, we set a simple rule: if an analysis can run well on your device, it runs on your device.

## What stays on your computer

- Text extraction (OCR): the engine is part of the extension.
- Face detection: the model finds faces locally and draws boxes; no face data is uploaded.
- Object and scene recognition: a compact model names common objects without a network call.

## What goes to the vision model

Answering an open question about an image needs a large vision model that does not fit in a browser. When you ask one, the extension sends that image and your question to our API, which forwards them to the model and returns the answer. We count the request for your monthly limit; we do not keep the image.

## Your account

Your password is stored only as an argon2id hash. The site keeps your session in your browser's local storage, loads no third-party analytics and sets no tracking cookies. You can delete your account from the dashboard at any time, and everything tied to it is removed at once.`
  },
  {
    slug: "finding-every-image-on-a-page",
    title: "Finding every image on a page is harder than it looks",
    excerpt: "Responsive images, CSS backgrounds, shadow roots, frames and lazy loading: how the extension builds a complete list of the images you can see.",
    category: "behind-the-scenes",
    tags: ["extension", "web platform", "performance"],
    author: AUTHORS.rahul,
    publishedAt: "2026-10-14T09:00:00Z",
    updatedAt: "2026-10-14T09:00:00Z",
    seo: { title: "How Image Query AI finds every image on a web page", description: "Plain img tags are only the start. How the Image Query AI extension finds responsive images, CSS backgrounds, images in shadow roots and frames, and late-loading images." },
    content: `Ask a developer how to list the images of a page and the first answer is usually document.images. On a modern site that finds a fraction of what you see.

## Where images hide

- Responsive images pick one of several files with srcset and picture; we report the file the browser actually chose.
- Many hero images and thumbnails are CSS backgrounds, not img elements.
- Web components keep their markup in shadow roots, invisible to ordinary queries.
- Embedded frames carry their own documents and their own images.
- Infinite feeds add images long after the page has loaded.

## An index that keeps up

The extension's content script builds an index once and then watches the page for changes, so images that arrive while you scroll appear in the side panel within moments. It ignores its own elements and tiny tracking pixels, and it does this incrementally, so even pages with thousands of images stay responsive.

## Filters that match what you mean

Icons and spacers are rarely what you want to analyse. The Hide small images filter, on by default, hides images under 400 pixels on either side, and the size filter sorts the rest into small, medium and large.`
  },
  {
    slug: "asking-better-questions-about-images",
    title: "Five ways to ask better questions about an image",
    excerpt: "The vision model answers plain questions, but a few habits make its answers sharper: be specific, give context, and ask for the format you need.",
    category: "guides",
    tags: ["vision model", "tips", "questions"],
    author: AUTHORS.ananya,
    publishedAt: "2026-10-28T09:00:00Z",
    updatedAt: "2026-10-28T09:00:00Z",
    seo: { title: "Five tips for asking better questions about images", description: "Get sharper answers from Image Query AI's vision model: be specific, add context, ask for a format, split big questions and check what matters." },
    content: `Visual question answering feels like magic the first time: you ask what a chart shows and you get a sentence back. These five habits make the answers more useful.

## 1. Be specific

Instead of "What is this?", ask "Which month has the highest value in this chart?". A narrow question gets a precise answer.

## 2. Give context the image lacks

Tell the model what you already know: "This is a floor plan of a flat in Pune; how many bedrooms does it have?"

## 3. Ask for the format you need

Say "as a bulleted list", "in one sentence" or "as a table with two columns" and the answer arrives ready to paste.

## 4. Split big questions

Several small questions beat one long one. On the Free plan each question counts towards your monthly requests, so it is worth starting with the one that matters most.

## 5. Check what matters

Vision models are good but not infallible, especially with small text or unusual diagrams. For exact figures, run text extraction first and compare. It is local, free and unlimited.`
  },
  {
    slug: "face-and-object-detection-explained",
    title: "Face and object detection, explained without the jargon",
    excerpt: "What the boxes mean, how confident the models are, and what face detection does not do: it finds faces, it does not identify strangers.",
    category: "guides",
    tags: ["faces", "objects", "on-device"],
    author: AUTHORS.sofia,
    publishedAt: "2026-11-05T09:00:00Z",
    updatedAt: "2026-11-05T09:00:00Z",
    seo: { title: "Face and object detection in Image Query AI, explained", description: "How Image Query AI finds faces and objects in images on your own device, what the boxes and scores mean, and what the models deliberately do not do." },
    content: `Two of Image Query AI's analyses draw boxes on an image: face detection and object detection. Both run locally, and both are easier to use well once you know what they measure.

## Detection, not identification

Face detection answers "where are the faces in this picture?". It does not look anyone up and has no database of people. Each box comes with a score between 0 and 1 that says how sure the model is.

## Objects and scenes

Object detection recognises common things (people, vehicles, animals, furniture, food, everyday objects) and puts a labelled box around each one. Together the labels give a quick description of the scene, useful for checking product photos or skimming an image-heavy page.

## Getting good results

- Larger images give better results; use the size filter to pick them.
- Very small or heavily cropped faces may be missed.
- Low scores are worth a second look; the vision model can settle doubtful cases.`
  },
  {
    slug: "choosing-the-right-plan",
    title: "Free, Pro or Enterprise: choosing the right plan",
    excerpt: "What each plan includes, when the 10 free questions a month are enough, and how the 14-day trial and 30-day guarantee work.",
    category: "product-updates",
    tags: ["pricing", "plans", "billing"],
    author: AUTHORS.karthik,
    publishedAt: "2026-11-18T09:00:00Z",
    updatedAt: "2026-11-18T09:00:00Z",
    seo: { title: "Choosing an Image Query AI plan: Free, Pro or Enterprise", description: "Compare Image Query AI's Free, Pro and Enterprise plans: request limits, prices, annual savings, the free trial and the money-back guarantee." },
    content: `The question we answer most in support is which plan to pick. The short version: start on Free, and move up when the vision model becomes part of your day.

## Free

Free costs nothing and includes 10 questions to the vision model a month, plus unlimited local text extraction, face and object detection. For occasional use it is all you need.

## Pro

Pro costs $19 a month, or $190 a year, which saves 20%. It removes the monthly limit on questions and adds API access and priority support. It starts with a 14-day free trial, no card required.

## Enterprise

Enterprise costs $99 a month or $990 a year and is built for teams: custom request limits, team management, white-label options, an SLA and a dedicated contact.

## Changing your mind

You can upgrade or downgrade from the Pricing page at any time. Every payment is covered by a 30-day money-back guarantee, and support answers billing questions within 24 hours.`
  },
]
