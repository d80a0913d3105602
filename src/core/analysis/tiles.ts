/**
 * Sliced inference for the objects engines (as SAHI does it): CenterNet squeezes the whole image into 512 × 512
 * pixels, where the people of a crowd or a group montage are too small to be found. On a large image the engine
 * looks again at overlapping tiles, each squeezed far less, maps what each tile finds back to the image, and merges
 * the tiles' and the full pass's detections so that one object seen twice (whole, or cut by a tile's edge) counts
 * once. The extension's engine (src/analysis/objects.ts) and the server's (server/local-vision/vision-task.ts) both use
 * this module, so they tile and merge alike.
 */
import { OBJECTS_ANALYSIS_SIDE, toDetectedObjects, type Box, type DetectedObject, type MinScores, type RawObject } from "./detections"

/**
 * Tiles only when the image's longer side is more than this many times the side the full pass analyses: below it,
 * the full pass already sees people at a size CenterNet finds, and tiles would only cost time.
 */
export const TILE_WHEN_LONGER_THAN = 1.5

/** Share of a tile's width (height) its neighbour also covers, SAHI's default: an object cut by one is whole in the next. */
export const TILE_OVERLAP = 0.2

/**
 * The longer side of a tile the layout aims at, in the image's pixels: CenterNet sees 512, so a tile of 640 is shrunk
 * 1.25 times, where a 1920-pixel image's full pass shrinks 3.75 times.
 */
export const TILE_TARGET_SIDE = 640

/**
 * At most this many tiles per image. Each tile is one more CenterNet run (about as long as the full pass), a request's
 * CPU time is bounded per account, and a pool thread working on one image is a thread the other callers wait for:
 * so a very large image gets larger tiles, not more of them.
 */
export const MAX_TILES = 6

/**
 * The most objects listed for a tiled image, where DEFAULT_MAX_OBJECTS (20) is for the full pass alone: a group photo
 * or crowd large enough to tile holds more people than that (the group montages of bench/photos hold 22 to 88), and
 * the merged list is the point of tiling. 100 is what one CenterNet pass can put out.
 */
export const MAX_TILED_OBJECTS = 100

/** Detections of one label from different passes that overlap this much (intersection over union) are one object. */
export const MERGE_IOU = 0.5

/**
 * Detections of one label from different passes whose intersection covers this much of the smaller box are one
 * object: a person cut by a tile's edge is a part of the box the full pass (or the next tile) draws around them whole.
 * SAHI's default; at 0.6 a tile's box straddling two of sample3's people (0.59 of it in one) stayed a fourth person.
 */
export const MERGE_IOS = 0.5

/**
 * The tiles to analyse beside the full pass, in the image's pixels, left to right then top to bottom; none when the
 * image is small enough for the full pass alone (`analysisSide` is the longer side the full pass analyses). The grid
 * is the one with the fewest tiles whose longer side reaches TILE_TARGET_SIDE; when MAX_TILES cannot, the one with
 * the smallest tiles. Neighbours overlap by TILE_OVERLAP and together they cover the whole image.
 */
export function tileLayout(imageWidth: number, imageHeight: number, analysisSide: number): Box[] {
  if (Math.max(imageWidth, imageHeight) <= analysisSide * TILE_WHEN_LONGER_THAN) return []
  // n tiles of side s overlapping by TILE_OVERLAP span s * (n - (n - 1) * TILE_OVERLAP).
  const sideFor = (length: number, count: number) => length / (count - (count - 1) * TILE_OVERLAP)
  let best: { columns: number; rows: number; side: number } | null = null
  for (let columns = 1; columns <= MAX_TILES; columns++) {
    for (let rows = 1; columns * rows <= MAX_TILES; rows++) {
      if (columns * rows < 2) continue
      const side = Math.max(sideFor(imageWidth, columns), sideFor(imageHeight, rows))
      const count = columns * rows
      if (!best) {
        best = { columns, rows, side }
        continue
      }
      const bestCount = best.columns * best.rows
      const reaches = side <= TILE_TARGET_SIDE
      const bestReaches = best.side <= TILE_TARGET_SIDE
      const better = reaches
        ? !bestReaches || count < bestCount || (count === bestCount && side < best.side)
        : !bestReaches && (side < best.side || (side === best.side && count < bestCount))
      if (better) best = { columns, rows, side }
    }
  }
  const { columns, rows } = best!
  const starts = (length: number, count: number) => {
    const size = Math.min(length, Math.round(sideFor(length, count)))
    return Array.from({ length: count }, (_, index) => ({ start: count === 1 ? 0 : Math.round((index * (length - size)) / (count - 1)), size }))
  }
  const xs = starts(imageWidth, columns)
  const ys = starts(imageHeight, rows)
  return ys.flatMap((y) => xs.map((x) => ({ x: x.start, y: y.start, width: x.size, height: y.size })))
}

/**
 * A person the full pass found at least this share of the image's height tall. When every person it found is that
 * tall, the photo is of a few people close up (the hand-counted sample photos: 0.43 to 0.96): tiles would find parts
 * of them and small things beside them, at six or seven times the time, and no one more. A group or a crowd has
 * people below it (the montages of bench/photos/group-photos.json: 0.02 to 0.46), and a photo where the full pass
 * found no one may be a crowd too small for it (crowd-24: none of 88).
 */
export const LARGE_PERSON_HEIGHT = 0.5

/** The tiles worth a look after the full pass found `full` (boxes in the image's pixels): see LARGE_PERSON_HEIGHT. */
export function tilesAfter(full: readonly DetectedObject[], imageWidth: number, imageHeight: number, analysisSide: number): Box[] {
  const people = full.filter((object) => object.label === "person")
  if (people.length > 0 && people.every((person) => person.box.height >= LARGE_PERSON_HEIGHT * imageHeight)) return []
  return tileLayout(imageWidth, imageHeight, analysisSide)
}

/**
 * The longer side of the copy the tiles are cut from: the image's own, shrunk only so far that no tile is larger than
 * `analysisSide` on it (CenterNet shrinks each tile to 512 anyway; a larger copy would only cost time and memory).
 */
export function tilingCopySide(imageWidth: number, imageHeight: number, tiles: readonly Box[], analysisSide: number): number {
  const largest = Math.max(...tiles.map((tile) => Math.max(tile.width, tile.height)))
  return Math.ceil(Math.max(imageWidth, imageHeight) * Math.min(1, analysisSide / largest))
}

/**
 * A tile of the image (in its pixels) on the shrunk copy the engine cut it from (`scale` image pixels a copy pixel),
 * in the copy's whole pixels and inside it.
 */
export function tileOnCopy(tile: Box, scale: number, copyWidth: number, copyHeight: number): Box {
  const x = Math.min(Math.round(tile.x / scale), copyWidth - 1)
  const y = Math.min(Math.round(tile.y / scale), copyHeight - 1)
  const right = Math.max(x + 1, Math.min(Math.round((tile.x + tile.width) / scale), copyWidth))
  const bottom = Math.max(y + 1, Math.min(Math.round((tile.y + tile.height) / scale), copyHeight))
  return { x, y, width: right - x, height: bottom - y }
}

/** What the detector found in a tile cut from a copy at `offset`, its boxes moved to the copy's pixels. */
export function fromTile(raw: readonly RawObject[], offset: { x: number; y: number }): RawObject[] {
  return raw.map((object) => ({ ...object, box: [object.box[0] + offset.x, object.box[1] + offset.y, object.box[2], object.box[3]] as const }))
}

const area = (box: Box) => box.width * box.height

function intersection(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x)
  const y = Math.min(a.y, b.y)
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y }
}

/** Whether two boxes are one object by MERGE_IOU or MERGE_IOS. */
export function sameObject(a: Box, b: Box): boolean {
  const shared = intersection(a, b)
  if (shared === 0) return false
  return shared / (area(a) + area(b) - shared) >= MERGE_IOU || shared / Math.min(area(a), area(b)) >= MERGE_IOS
}

/** One pass over the image: the full pass (no tile) or one tile's, its boxes already in the image's pixels. */
export interface Pass {
  objects: readonly DetectedObject[]
  tile?: Box
}

/**
 * How near a tile's inner edge (one that is not the image's) a box must end to count as cut by it, as a share of the
 * tile's side: CenterNet's boxes of a cut person stop short of the edge by up to about 3% (measured on sample3).
 */
export const CUT_MARGIN = 0.04

/** Whether a box from `tile` ends at one of its inner edges, so that its object may go on beyond the tile. */
export function cutByTile(box: Box, tile: Box, imageWidth: number, imageHeight: number): boolean {
  const marginX = tile.width * CUT_MARGIN
  const marginY = tile.height * CUT_MARGIN
  return (
    (tile.x > 0 && box.x <= tile.x + marginX) ||
    (tile.y > 0 && box.y <= tile.y + marginY) ||
    (tile.x + tile.width < imageWidth && box.x + box.width >= tile.x + tile.width - marginX) ||
    (tile.y + tile.height < imageHeight && box.y + box.height >= tile.y + tile.height - marginY)
  )
}

/**
 * A tile's detection at most this share of the area of one it lies in (by MERGE_IOS) is a part of that object, such as
 * the upper body a tile finds of a person the full pass saw whole, not a second object.
 */
export const PART_AREA = 0.5

/**
 * The detections of the full pass and the tiles as one list, best score first, at most `maxObjects`. Greedy, label by
 * label: the full pass's detections first (it sees large objects whole, where a tile sees parts of them, often with a
 * better score), then the tiles' by score. A detection that is the same object (sameObject) as one already kept joins
 * the one it overlaps most and gives it the better score; the box stays the full pass's, or grows to the union of the
 * tiles' (a person cut by a tile's edge gets their whole box back). A detection never joins another of its own pass,
 * which has already told its overlapping objects apart (people standing shoulder to shoulder), unless it is cut by its
 * tile's edge or a part of the other: a tile can see two parts of one large person.
 */
export function mergeDetections(passes: readonly Pass[], imageWidth: number, imageHeight: number, maxObjects: number): DetectedObject[] {
  const candidates = passes
    .flatMap(({ objects, tile }, pass) => objects.map((object) => ({ object, pass, cut: !!tile && cutByTile(object.box, tile, imageWidth, imageHeight) })))
    .sort((a, b) => Number(a.pass > 0) - Number(b.pass > 0) || b.object.score - a.object.score || a.pass - b.pass)
  const kept: { object: DetectedObject; passes: Set<number> }[] = []
  for (const { object, pass, cut } of candidates) {
    let match: (typeof kept)[number] | undefined
    let matchOverlap = 0
    for (const group of kept) {
      if (group.object.label !== object.label || !sameObject(group.object.box, object.box)) continue
      const part = pass > 0 && area(object.box) <= PART_AREA * area(group.object.box)
      if (group.passes.has(pass) && !cut && !part) continue
      const overlap = intersection(group.object.box, object.box) / Math.min(area(group.object.box), area(object.box))
      if (overlap > matchOverlap) [match, matchOverlap] = [group, overlap]
    }
    if (match) {
      const box = match.passes.has(0) ? match.object.box : union(match.object.box, object.box)
      match.object = { label: object.label, score: Math.max(match.object.score, object.score), box }
      match.passes.add(pass)
    } else {
      kept.push({ object, passes: new Set([pass]) })
    }
  }
  return kept
    .map((group) => group.object)
    .sort((a, b) => b.score - a.score)
    .slice(0, maxObjects)
}

/** An engine's tensor, as far as slicing it needs: [height, width, channels]. */
interface ImageTensorLike {
  shape: number[]
  dispose(): void
}

/** What Human's detect answers, as far as the objects need it. */
interface HumanAnswer {
  error?: string | null
  object: readonly RawObject[]
}

/**
 * What an objects engine (the extension's, the server's) brings: its decoding, its tfjs and Human, and its limits. Core
 * loads neither library: each engine starts its own (a browser build, a Node one), so they come in as arguments.
 */
export interface SlicedObjectsEngine<T extends ImageTensorLike> {
  /** The image as a tensor, its longer side at most `maxSide`; `scale` image pixels a tensor pixel. */
  decode(maxSide: number): Promise<{ tensor: T; width: number; height: number; scale: number }>
  /** The engine's tfjs, which cuts the tiles out of the copy. NoInfer: the tensor's type is the one decode makes. */
  tf: { slice(tensor: NoInfer<T>, begin: number[], size: number[]): NoInfer<T> }
  /** Human's detect (the extension's within its run's time limit). */
  detect(input: NoInfer<T>): Promise<HumanAnswer>
  minScores: MinScores
  /** The most objects an untiled image lists; a tiled one lists up to MAX_TILED_OBJECTS. */
  maxObjects: number
}

/**
 * The objects of an image: the full pass, then (tilesAfter) the tiles cut from one larger copy, merged. Every tensor
 * is disposed whatever happens: the engines run image after image in one long-lived page or thread.
 */
export async function detectObjectsSliced<T extends ImageTensorLike>(engine: SlicedObjectsEngine<T>) {
  const detect = async (input: T) => {
    const result = await engine.detect(input)
    if (result.error) throw new Error(`Object detection failed: ${result.error}`)
    return result.object
  }
  const whole = await engine.decode(OBJECTS_ANALYSIS_SIDE)
  const { width, height } = whole
  let full: readonly RawObject[]
  try {
    full = await detect(whole.tensor)
  } finally {
    whole.tensor.dispose()
  }
  // Each pass keeps all it finds above the scores: the limit applies to the merged list.
  const limits = { minScores: engine.minScores, maxObjects: Infinity }
  const fullObjects = toDetectedObjects(full, width, height, limits, whole.scale)
  const tiles = tilesAfter(fullObjects, width, height, OBJECTS_ANALYSIS_SIDE)
  if (tiles.length === 0) return { objects: fullObjects.slice(0, engine.maxObjects), imageWidth: width, imageHeight: height }
  const passes: Pass[] = [{ objects: fullObjects }]
  const copy = await engine.decode(tilingCopySide(width, height, tiles, OBJECTS_ANALYSIS_SIDE))
  try {
    const [copyHeight = 0, copyWidth = 0] = copy.tensor.shape
    for (const tile of tiles) {
      const cut = tileOnCopy(tile, copy.scale, copyWidth, copyHeight)
      const part = engine.tf.slice(copy.tensor, [cut.y, cut.x, 0], [cut.height, cut.width, 3])
      try {
        passes.push({ objects: toDetectedObjects(fromTile(await detect(part), cut), width, height, limits, copy.scale), tile })
      } finally {
        part.dispose()
      }
    }
  } finally {
    copy.tensor.dispose()
  }
  return { objects: mergeDetections(passes, width, height, Math.max(engine.maxObjects, MAX_TILED_OBJECTS)), imageWidth: width, imageHeight: height }
}
