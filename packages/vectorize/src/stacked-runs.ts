import { loopCorners, walkLoop } from './outline.ts';
import { PathBuilder } from './path-builder.ts';
import { printedInteger } from './path-text.ts';
import { int32Scratch } from './scratch.ts';
import { strokedRunLength } from './svg.ts';
import type { PathCommand, VectorPath } from './types.ts';

/**
 * Layers of fewer pixels are written as their own regions only, never as whole pieces: such layers
 * are mostly anti-aliasing shades, and weighing whole pieces for them walks the outline of every
 * glyph they fringe. On the 25 OCR pictures that was a third of the writing time and saved 0.3 % of
 * the bytes (at 1,000 px: 1.3 %).
 */
const MIN_STACKED_PIXELS = 200;

/**
 * Exact pixel regions of a snapped diagram or screenshot (fine-detail.ts), painted in layers that
 * may overlap. Colours are painted from the paper out: the paper as one frame-sized rectangle, then
 * the others by how far their lightness is from the paper's (anti-aliasing shades before the ink
 * they fringe). A later layer paints over an earlier one, so a layer may also cover pixels of any
 * later colour: where that makes its outline shorter it does. Glyphs are the case in point: their
 * pale fringe pixels, exact, are hundreds of one-pixel specks; painted as the fringe-and-ink blob
 * under the ink, they are one outline per letter. Rendered with crisp edges the result is still
 * exactly the snapped image.
 *
 * The choice is made per connected piece of "this colour or a later one": either the piece as a
 * whole, or only this colour's own regions inside it, whichever outline is estimated shorter
 * (for layers of MIN_STACKED_PIXELS or more).
 */
export function traceStackedRuns(
  labels: Uint8Array,
  palette: readonly number[],
  w: number,
  h: number,
  precision: number,
): VectorPath[] {
  const n = w * h;
  const layers = palette.length;
  const order = paintOrder(palette);
  const rankOf = new Int32Array(layers);
  order.forEach((colour, rank) => {
    rankOf[colour] = rank;
  });
  const rank = int32Scratch('runs ranks', n);
  const size = rankPixels(labels, rankOf, rank);
  // nextStacked[k]: the first layer from k up that is big enough to weigh painting whole pieces.
  const nextStacked = new Int32Array(layers + 1).fill(layers);
  for (let k = layers - 1; k >= 1; k--) nextStacked[k] = size[k]! >= MIN_STACKED_PIXELS ? k : nextStacked[k + 1]!;

  // Pixels by rank (to add each layer's pixels to the pieces), and loop start candidates by layer:
  // for a layer's own regions, its pixels under a pixel of another colour; for "this colour or
  // later", pixels of rank r under one of rank u < r start loops of every layer in (u, r].
  const { byRank, ownStarts, stackStarts } = startLists(rank, w, size, nextStacked);

  const parent = int32Scratch('runs pieces', n).fill(-1);
  const walked = int32Scratch('runs walked', n).fill(-1);
  const ownCost = int32Scratch('runs own cost', n).fill(0);
  const stackCost = int32Scratch('runs stack cost', n).fill(0);
  const holds = int32Scratch('runs pieces holding the layer', n).fill(-1);
  const own = new LoopList();
  const stacked = new LoopList();
  const commands: VectorPath['commands'][] = new Array(layers);
  // From the last layer to the first, so the pieces of "rank >= k" grow by union as k falls.
  for (let k = layers - 1; k >= 1; k--) {
    const layerPixels = byRank.items.subarray(byRank.start[k]!, byRank.start[k + 1]!);
    addPixels(parent, layerPixels, w);
    own.trace(rank, w, h, k, k + 1, ownStarts, walked, 2 * k, parent, ownCost);
    stacked.count = 0;
    if (nextStacked[k] === k) {
      // Pieces holding a pixel of this colour: only their outlines can be painted in this layer.
      for (const p of layerPixels) holds[find(parent, p)] = k;
      stacked.trace(rank, w, h, k, layers, stackStarts, walked, 2 * k + 1, parent, stackCost, holds);
    }
    commands[k] = writeChosen(own, stacked, ownCost, stackCost, precision);
  }
  const frame = new PathBuilder(precision);
  frame.polygon([0, 0, w, 0, w, h, 0, h]);
  commands[0] = frame.commands;
  return order.flatMap((colour, k) => {
    const key = palette[colour]!;
    const color = { r: key >>> 24, g: (key >>> 16) & 255, b: (key >>> 8) & 255, a: key & 255 };
    // A fully transparent bottom layer paints nothing: its pixels stay clear.
    return color.a === 0 ? [] : [{ color, commands: commands[k]! }];
  });
}

/**
 * One layer's path: its loops in raster order of their first pixels, each piece either as a whole
 * (its `stacked` loops) or as its own regions, whichever is estimated shorter. Resets both costs.
 */
function writeChosen(
  own: LoopList,
  stacked: LoopList,
  ownCost: Int32Array,
  stackCost: Int32Array,
  precision: number,
): PathCommand[] {
  const builder = new PathBuilder(precision);
  let a = 0;
  let b = 0;
  while (a < own.count || b < stacked.count) {
    const takeOwn = b === stacked.count || (a < own.count && own.start[a]! < stacked.start[b]!);
    const list = takeOwn ? own : stacked;
    const index = takeOwn ? a++ : b++;
    const piece = list.piece[index]!;
    // Pieces without a pixel of this colour have no own cost: they are not painted at all.
    const asWhole = ownCost[piece]! > 0 && stackCost[piece]! > 0 && stackCost[piece]! < ownCost[piece]!;
    if (asWhole !== takeOwn) builder.polygon(list.corners.subarray(list.offset[index]!, list.offset[index + 1]!));
  }
  for (const list of [own, stacked])
    for (let i = 0; i < list.count; i++) ownCost[list.piece[i]!] = stackCost[list.piece[i]!] = 0;
  return builder.commands;
}

/**
 * Paper first, then by distance in lightness from the paper (ties: the more common first). A
 * translucent entry (at most one: the clear or half-clear pixels some pictures have at an edge or
 * as background) comes before the paper: it is painted over the whole frame, and every opaque pixel
 * is painted over it.
 */
function paintOrder(palette: readonly number[]): number[] {
  const lightness = (key: number): number =>
    0.299 * (key >>> 24) + 0.587 * ((key >>> 16) & 255) + 0.114 * ((key >>> 8) & 255);
  const paper = lightness(palette[0]!);
  const translucent = palette.findIndex((key) => (key & 255) !== 255);
  const rest = palette.map((_, i) => i).filter((i) => i !== 0 && i !== translucent);
  rest.sort((a, b) => Math.abs(lightness(palette[a]!) - paper) - Math.abs(lightness(palette[b]!) - paper) || a - b);
  return translucent >= 0 ? [translucent, 0, ...rest] : [0, ...rest];
}

/** Writes each pixel's paint rank into `rank`; returns how many pixels each rank has. */
function rankPixels(labels: Uint8Array, rankOf: Int32Array, rank: Int32Array): Int32Array {
  const size = new Int32Array(rankOf.length);
  for (let p = 0; p < labels.length; p++) {
    const r = rankOf[labels[p]!]!;
    rank[p] = r;
    size[r]!++;
  }
  return size;
}

/**
 * Adds `pixels` (one layer's) to the pieces in `parent` (-1: a pixel not yet added), joining each
 * with its 4-neighbours already there. A piece's root is its first pixel in raster order.
 */
function addPixels(parent: Int32Array, pixels: Int32Array, w: number): void {
  const n = parent.length;
  for (const p of pixels) parent[p] = p;
  for (const p of pixels) {
    const x = p % w;
    let root = find(parent, p);
    if (x > 0 && parent[p - 1]! >= 0) root = union(parent, root, p - 1);
    if (x + 1 < w && parent[p + 1]! >= 0) root = union(parent, root, p + 1);
    if (p >= w && parent[p - w]! >= 0) root = union(parent, root, p - w);
    if (p + w < n && parent[p + w]! >= 0) union(parent, root, p + w);
  }
}

function find(parent: Int32Array, p: number): number {
  while (parent[p] !== p) {
    const up = parent[parent[p]!]!;
    parent[p] = up;
    p = up;
  }
  return p;
}

/** Joins the piece of `root` (a root) with that of pixel q; returns the root of the union, its first pixel. */
function union(parent: Int32Array, root: number, q: number): number {
  const other = find(parent, q);
  if (other === root) return root;
  if (other < root) {
    parent[root] = other;
    return other;
  }
  parent[other] = root;
  return root;
}

interface Grouped {
  /** Items of layer k are items[start[k] .. start[k + 1]). */
  start: Int32Array;
  items: Int32Array;
}

/**
 * Pixels grouped by layer (counting sort, raster order within a layer; `size` holds the pixels of
 * each rank), in two passes over the pixels: byRank, every pixel by its rank; ownStarts, a pixel
 * under one of another rank (or on the top row), by its rank; stackStarts, a pixel of rank r under
 * one of rank u < r (or on the top row), for every layer in (u, r] that weighs whole pieces
 * (nextStacked: the first such layer from k up).
 */
function startLists(
  rank: Int32Array,
  w: number,
  size: Int32Array,
  nextStacked: Int32Array,
): Record<'byRank' | 'ownStarts' | 'stackStarts', Grouped> {
  const n = rank.length;
  const layers = size.length;
  const all = new Int32Array(layers + 1);
  const own = new Int32Array(layers + 1);
  const stack = new Int32Array(layers + 1);
  for (let p = 0; p < n; p++) {
    const r = rank[p]!;
    const above = p < w ? -1 : rank[p - w]!;
    if (above === r) continue;
    own[r + 1]!++;
    for (let k = nextStacked[above + 1 || 1]!; k <= r; k = nextStacked[k + 1]!) stack[k + 1]!++;
  }
  for (let k = 0; k < layers; k++) {
    all[k + 1] = all[k]! + size[k]!;
    own[k + 1]! += own[k]!;
    stack[k + 1]! += stack[k]!;
  }
  const allItems = int32Scratch('runs by rank', n);
  const ownItems = int32Scratch('runs own starts', own[layers]!);
  const stackItems = int32Scratch('runs stack starts', stack[layers]!);
  const allFill = all.slice(0, layers);
  const ownFill = own.slice(0, layers);
  const stackFill = stack.slice(0, layers);
  for (let p = 0; p < n; p++) {
    const r = rank[p]!;
    const above = p < w ? -1 : rank[p - w]!;
    allItems[allFill[r]!++] = p;
    if (above === r) continue;
    ownItems[ownFill[r]!++] = p;
    for (let k = nextStacked[above + 1 || 1]!; k <= r; k = nextStacked[k + 1]!) stackItems[stackFill[k]!++] = p;
  }
  return {
    byRank: { start: all, items: allItems },
    ownStarts: { start: own, items: ownItems },
    stackStarts: { start: stack, items: stackItems },
  };
}

/** Characters of a relative move between nearby loops, as "m23 0" (see LoopList.trace). */
const MOVE = 5;

/** The loops of one layer and region kind, kept until the layer decides which to write. */
class LoopList {
  corners: Int32Array = new Int32Array(4096);
  offset: Int32Array = new Int32Array(256);
  start: Int32Array = new Int32Array(256);
  piece: Int32Array = new Int32Array(256);
  count = 0;

  /**
   * Walks every loop of the region lo <= rank < hi from `starts` (its layer's list), keeping
   * corners, first pixel and piece of each, and adds each loop's estimated SVG length to its
   * piece's cost: a move, then a letter and number per side but the last, which `z` closes; a
   * 1-px run, which svg.ts writes as a stroke, a move and "z" or "h"/"v" and its length less one.
   * Counting the letters matters: without them a glyph's blob looked cheaper than its specks.
   */
  trace(
    rank: Int32Array,
    w: number,
    h: number,
    lo: number,
    hi: number,
    starts: Grouped,
    walked: Int32Array,
    stamp: number,
    parent: Int32Array,
    cost: Int32Array,
    holds?: Int32Array,
  ): void {
    this.count = 0;
    let used = 0;
    for (let e = starts.start[lo]!; e < starts.start[lo + 1]!; e++) {
      const p = starts.items[e]!;
      if (walked[p] === stamp) continue;
      const piece = find(parent, p);
      if (holds && holds[piece] !== lo) continue;
      const y = (p / w) | 0;
      const length = walkLoop(rank, w, h, lo, hi, p - y * w, y, walked, stamp);
      const corners = loopCorners();
      const run =
        length === 8
          ? strokedRunLength(
              corners[0]!,
              corners[1]!,
              corners[2]!,
              corners[3]!,
              corners[4]!,
              corners[5]!,
              corners[6]!,
              corners[7]!,
            )
          : 0;
      let estimate = MOVE + 1;
      if (run > 1) estimate += printedInteger(run - 1);
      else if (run === 0)
        for (let c = 2; c < length; c += 2) {
          const along = corners[c]! - corners[c - 2]! || corners[c + 1]! - corners[c - 1]!;
          estimate += 1 + printedInteger(along);
        }
      cost[piece]! += estimate;
      this.reserve(used + length);
      this.corners.set(corners.subarray(0, length), used);
      this.offset[this.count] = used;
      this.start[this.count] = p;
      this.piece[this.count] = piece;
      used += length;
      this.count++;
      this.offset[this.count] = used;
    }
  }

  private reserve(numbers: number): void {
    if (this.count + 2 > this.offset.length) {
      const grow = (a: Int32Array): Int32Array => {
        const b = new Int32Array(2 * a.length);
        b.set(a);
        return b;
      };
      this.offset = grow(this.offset);
      this.start = grow(this.start);
      this.piece = grow(this.piece);
    }
    if (numbers > this.corners.length) {
      const bigger = new Int32Array(Math.max(numbers, 2 * this.corners.length));
      bigger.set(this.corners);
      this.corners = bigger;
    }
  }
}
