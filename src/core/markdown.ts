/**
 * The blog's Markdown renderer, one for both sides: the server renders a post's `html` with it when the post is saved,
 * and the admin's editor previews with it, so the preview is exactly what visitors will get. Safe by construction:
 * raw HTML in the Markdown is shown as text (`html: false`), links may only go to http(s), mailto or a path of this
 * site, and every link gets rel="noopener nofollow" (a post's links earn the targets nothing). Images only from this
 * site's own paths (the uploaded blog images): the site's CSP shows no other, and a third party's image would tell
 * that party who reads the blog; one from elsewhere becomes a link to it, named by its alt text.
 */
import MarkdownIt from "markdown-it"

const SAFE_LINK = /^(https?:|mailto:|\/(?!\/)|#)/i
const OWN_IMAGE = /^\/(?!\/)/

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
  const alt = markdown.utils.escapeHtml(token.content)
  if (!OWN_IMAGE.test(source)) {
    // Elsewhere on the web: a link the reader may follow. Anything else that passed the link check (mailto:): its alt text.
    if (!/^https?:/i.test(source)) return alt
    return `<a href="${markdown.utils.escapeHtml(source)}" rel="noopener nofollow">${alt || markdown.utils.escapeHtml(source)}</a>`
  }
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
