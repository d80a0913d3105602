/**
 * The blog's renderer keeps what an author writes from running in a visitor's page: raw HTML comes out as text,
 * dangerous links and images come out as text, and every link carries rel="noopener nofollow".
 */
import { describe, expect, it } from "vitest"

import { readMinutes, renderMarkdown } from "./markdown"

/** The rendered HTML parsed as a browser would: what elements and attributes it really makes. */
function parsed(markdown: string) {
  const host = document.createElement("div")
  host.innerHTML = renderMarkdown(markdown)
  return host
}

const ATTACKS = [
  "<script>alert(1)</script>",
  '<img src="x" onerror="alert(1)">',
  '<a href="https://example.com" onclick="alert(1)">x</a>',
  '<iframe src="https://example.com"></iframe>',
  "<svg onload=alert(1)>",
  '<div style="background:url(javascript:alert(1))">x</div>',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](java\tscript:alert(1))",
  "[click]( javascript:alert(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[click](vbscript:msgbox(1))",
  "![x](javascript:alert(1))",
  "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
  '![x" onerror="alert(1)](https://example.com/a.png)',
  '![x](https://example.com/a.png "t\\" onerror=\\"alert(1)")',
  "<javascript:alert(1)>",
  "[x](https://example.com/\" onmouseover=\"alert(1))"
]

describe("renderMarkdown", () => {
  it("renders the usual Markdown", () => {
    const html = renderMarkdown("## Heading\n\nSome **bold** text.\n\n- one\n- two\n\n1. first\n")
    expect(html).toContain("<h2>Heading</h2>")
    expect(html).toContain("<strong>bold</strong>")
    expect(html).toContain("<li>one</li>")
    expect(html).toContain("<ol>")
  })

  it.each(ATTACKS)("leaves %s inert", (attack) => {
    const host = parsed(`Before\n\n${attack}\n\nAfter`)
    expect(host.querySelectorAll("script, iframe, svg, div, style, object, embed")).toHaveLength(0)
    for (const element of host.querySelectorAll("*")) {
      for (const attribute of element.attributes) {
        expect(attribute.name, attack).not.toMatch(/^on/i)
        expect(attribute.name, attack).not.toBe("style")
        expect(attribute.value.replace(/\s/g, ""), attack).not.toMatch(/^(javascript|data|vbscript):/i)
      }
    }
    for (const link of host.querySelectorAll("a")) expect(link.getAttribute("href"), attack).toMatch(/^https?:/)
    for (const image of host.querySelectorAll("img")) expect(image.getAttribute("src"), attack).toMatch(/^\/[^/]/)
  })

  it("shows raw HTML as the text it is", () => {
    const host = parsed("<script>alert(1)</script>")
    expect(host.textContent).toContain("<script>alert(1)</script>")
  })

  it("marks every link noopener nofollow and keeps http(s), mailto and the site's own paths", () => {
    const host = parsed("[a](https://example.com) [b](http://example.org) [c](/pricing) [d](mailto:hi@example.com) https://auto.example.com")
    const links = [...host.querySelectorAll("a")]
    expect(links.map((link) => link.getAttribute("href"))).toEqual(["https://example.com", "http://example.org", "/pricing", "mailto:hi@example.com", "https://auto.example.com"])
    for (const link of links) expect(link.getAttribute("rel")).toBe("noopener nofollow")
  })

  it("refuses protocol-relative links; shows images of the site's own paths, and links to those from elsewhere", () => {
    expect(parsed("[x](//evil.example.com)").querySelector("a")).toBeNull()
    const own = parsed("![chart](/api/blog/images/chart.webp)").querySelector("img")!
    expect([own.getAttribute("src"), own.getAttribute("alt"), own.getAttribute("loading")]).toEqual(["/api/blog/images/chart.webp", "chart", "lazy"])
    const elsewhere = parsed("![chart](https://example.com/chart.png)")
    expect(elsewhere.querySelector("img")).toBeNull()
    const link = elsewhere.querySelector("a")!
    expect([link.getAttribute("href"), link.textContent, link.getAttribute("rel")]).toEqual(["https://example.com/chart.png", "chart", "noopener nofollow"])
    expect(parsed("![x](//evil.example.com/a.png)").querySelector("img, a")).toBeNull()
    expect(parsed("![mail](mailto:a@example.com)").querySelector("img, a")).toBeNull()
  })
})

describe("readMinutes", () => {
  it("counts 200 words a minute, at least one", () => {
    expect(readMinutes("")).toBe(1)
    expect(readMinutes("word ".repeat(1000))).toBe(5)
  })
})
