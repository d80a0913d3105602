/**
 * The blog's Markdown renderer, one for both sides: the server renders a post's `html` with it when the post is saved,
 * and the admin's editor previews with it, so the preview is exactly what visitors will get. Safe by construction:
 * raw HTML in the Markdown is shown as text (`html: false`), links may only go to http(s), mailto or a path of this
 * site, images only to http(s), and every link gets rel="noopener nofollow" (a post's links earn the targets nothing).
 */
import MarkdownIt from "markdown-it"

const SAFE_LINK = /^(https?:|mailto:|\/(?!\/)|#)/i
const SAFE_IMAGE = /^https?:/i

/** A URL with what browsers ignore taken out ("java\tscript:", leading spaces), so the check sees what they see. */
const normalised = (url: string) => [...url].filter((character) => character.charCodeAt(0) > 0x20 && (character.charCodeAt(0) < 0x7f || character.charCodeAt(0) > 0x9f)).join("")

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false })

// markdown-it's own check refuses javascript:, vbscript:, file: and most data: URLs; ours is narrower still: what is
// not listed above is not a link at all (rendered as text).
markdown.validateLink = (url: string) => {
  return SAFE_LINK.test(normalised(url))
}

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options))
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]!.attrSet("rel", "noopener nofollow")
  return defaultLinkOpen(tokens, index, options, env, self)
}

const defaultImage = markdown.renderer.rules.image!
markdown.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index]!
  const source = normalised(String(token.attrGet("src") ?? ""))
  // An image from anywhere but http(s) (a mailto: or a path passes the link check) is shown as its alt text.
  if (!SAFE_IMAGE.test(source)) return markdown.utils.escapeHtml(token.content)
  token.attrSet("loading", "lazy")
  return defaultImage(tokens, index, options, env, self)
}

/** The post's Markdown as HTML that is safe to put into a page as it is. */
export function renderMarkdown(source: string): string {
  return markdown.render(source)
}

/** Minutes to read a text, at 200 words a minute, at least one. */
export function readMinutes(source: string): number {
  const words = source.split(/\s+/).filter(Boolean).length
  return Math.max(1, Math.round(words / 200))
}
