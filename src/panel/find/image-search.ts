/**
 * Find in images: what was read of an image (its text, object labels and face count) matched against a query.
 * Matching ignores case and accents (NFD, marks dropped), and every word of the query must be found: at the start
 * of a word of the text or labels, or anywhere in text written without spaces (Chinese, Japanese, Thai…). The
 * words "face", "faces", "person" and "people" (or their beginnings) find the images with faces or a person.
 * Each match says why, as segments of the original text with the matched parts marked: the view renders them as
 * text (a <mark> per marked segment), never as HTML.
 */
import { countOf } from "~core/format"

/** What the panel read of one image on the device. */
export interface ImageReading {
  text: string
  /** Distinct object labels, most confident first. */
  labels: string[]
  faces: number
}

/** A string in search form, with where each of its characters came from in the original. */
interface Searchable {
  original: string
  folded: string
  /** For each character of `folded`, the index in `original` of the character it came from. */
  from: number[]
}

/** A reading made ready for many searches: each field is folded once, not at every keystroke. */
export interface SearchableReading {
  reading: ImageReading
  text: Searchable
  labels: Searchable
}

export interface Segment {
  text: string
  marked: boolean
}

export type MatchReason =
  /** Lines of the image's text that hold a match (at most MAX_TEXT_LINES). */
  | { kind: "text"; lines: Segment[][] }
  | { kind: "objects"; segments: Segment[] }
  | { kind: "faces"; segments: Segment[] }

const MARKS = /\p{M}/gu
const MARK = /\p{M}/u
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u
const WORDS = /[\p{L}\p{N}]+/gu
/** Scripts written without spaces between words: a query word may start anywhere in them. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
const PEOPLE_WORDS = ["face", "faces", "person", "people"]
/** Lines of text shown per image, and characters kept around the matches of a long line. */
export const MAX_TEXT_LINES = 3
const LINE_CONTEXT = 40

/** Lower case, decomposed, without accents and other combining marks. */
export function foldForSearch(value: string): string {
  return value.normalize("NFD").replace(MARKS, "").toLowerCase()
}

function searchable(original: string): Searchable {
  let folded = ""
  const from: number[] = []
  let index = 0
  for (const character of original) {
    const part = foldForSearch(character)
    folded += part
    for (let count = 0; count < part.length; count++) from.push(index)
    index += character.length
  }
  return { original, folded, from }
}

export function searchableReading(reading: ImageReading): SearchableReading {
  return { reading, text: searchable(reading.text), labels: searchable(reading.labels.join(", ")) }
}

/** The query's words, folded: "Café  Noir" → ["cafe", "noir"]. */
export function queryWords(query: string): string[] {
  return [...new Set(foldForSearch(query).match(WORDS) ?? [])]
}

type Range = [start: number, end: number]

/** Where `word` matches in `target` (folded positions): at word starts, or anywhere for unspaced scripts. */
function rangesOf(target: Searchable, word: string): Range[] {
  const ranges: Range[] = []
  const anywhere = UNSPACED.test(word)
  for (let at = target.folded.indexOf(word); at !== -1; at = target.folded.indexOf(word, at + 1)) {
    if (anywhere || at === 0 || !WORD_CHARACTER.test(target.folded[at - 1]!)) ranges.push([at, at + word.length])
  }
  return ranges
}

/** Folded ranges turned into ranges of the original string, sorted and merged. */
function originalRanges(target: Searchable, ranges: Range[]): Range[] {
  const mapped = ranges
    .map(([start, end]): Range => {
      const last = target.from[end - 1]!
      return [target.from[start]!, last + (target.original.codePointAt(last)! > 0xffff ? 2 : 1)]
    })
    .sort((a, b) => a[0] - b[0])
  const merged: Range[] = []
  for (const range of mapped) {
    const previous = merged.at(-1)
    if (previous && range[0] <= previous[1]) previous[1] = Math.max(previous[1], range[1])
    else merged.push([...range])
  }
  // Marks that combine with a marked letter belong to it.
  for (const range of merged) {
    while (range[1] < target.original.length && MARK.test(target.original[range[1]]!)) range[1]++
  }
  return merged
}

function segmentsOf(original: string, ranges: readonly Range[], from = 0, to = original.length): Segment[] {
  const segments: Segment[] = []
  let at = from
  for (const [start, end] of ranges) {
    if (end <= from || start >= to) continue
    if (start > at) segments.push({ text: original.slice(at, start), marked: false })
    segments.push({ text: original.slice(Math.max(start, from), Math.min(end, to)), marked: true })
    at = Math.min(end, to)
  }
  if (at < to) segments.push({ text: original.slice(at, to), marked: false })
  return segments
}

/** The lines of the text that hold a mark, a long line cut down to the part around its marks. */
function textLines(original: string, ranges: readonly Range[]): Segment[][] {
  const lines: Segment[][] = []
  let lineStart = 0
  for (const line of original.split("\n")) {
    const lineEnd = lineStart + line.length
    const inLine = ranges.filter(([start, end]) => start < lineEnd && end > lineStart)
    if (inLine.length && lines.length < MAX_TEXT_LINES) {
      const from = Math.max(lineStart, inLine[0]![0] - LINE_CONTEXT)
      const to = Math.min(lineEnd, inLine.at(-1)![1] + LINE_CONTEXT)
      const segments = segmentsOf(original, inLine, from, to)
      if (from > lineStart) segments.unshift({ text: "…", marked: false })
      if (to < lineEnd) segments.push({ text: "…", marked: false })
      lines.push(segments)
    }
    lineStart = lineEnd + 1
  }
  return lines
}

const isPeopleWord = (word: string) => PEOPLE_WORDS.some((people) => people.startsWith(word))

/**
 * Why the image matches every word of the query, or null when one word is found nowhere. An empty query matches
 * every image, with no reasons.
 */
export function matchReading(searchableImage: SearchableReading, words: readonly string[]): MatchReason[] | null {
  const { reading, text, labels } = searchableImage
  const hasPerson = reading.labels.includes("person")
  const textRanges: Range[] = []
  const labelRanges: Range[] = []
  let facesMatched = false
  for (const word of words) {
    const inText = rangesOf(text, word)
    const inLabels = rangesOf(labels, word)
    const people = isPeopleWord(word) && (reading.faces > 0 || hasPerson)
    if (!inText.length && !inLabels.length && !people) return null
    textRanges.push(...inText)
    labelRanges.push(...inLabels)
    if (people && reading.faces > 0) facesMatched = true
    // Without a face counted, the person the objects found is why.
    else if (people) labelRanges.push(...rangesOf(labels, "person"))
  }
  const reasons: MatchReason[] = []
  if (textRanges.length) reasons.push({ kind: "text", lines: textLines(text.original, originalRanges(text, textRanges)) })
  if (labelRanges.length) reasons.push({ kind: "objects", segments: segmentsOf(labels.original, originalRanges(labels, labelRanges)) })
  if (facesMatched) reasons.push({ kind: "faces", segments: [{ text: countOf(reading.faces, "face", "faces"), marked: true }] })
  return reasons
}
