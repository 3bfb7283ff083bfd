import { coreCounts, dominantColors, inkPalette, MAX_DOMINANT, paperColors } from './ink-palette.ts';
import { int32Scratch } from './scratch.ts';
import type { RgbaImage } from './types.ts';

/**
 * Diagrams and screenshots: a few flat colours (paper, fills, ink) cover nearly every pixel, and
 * much of the ink is 1–2 px thin (borders, connector lines, text strokes at 8–13 px). Curves
 * cannot be faithful at that scale: the spline engine merges thread-like clusters and specks into
 * their neighbours, so thin lines vanish and glyphs break. For such images `auto` snaps every pixel
 * to a palette of its colours (ink-palette.ts: anti-aliasing goes to paper, ink or half-way
 * between) and writes exact pixel runs, which keep every line and letter as drawn at the input's
 * size.
 */

/** The dominant colours must cover this share of the pixels (the rest is anti-aliasing). */
const MIN_COVERAGE = 0.85;
/** At least this share of the outline pixels must sit in runs of at most THIN_RUN px (see thinShare). */
const MIN_THIN_SHARE = 0.35;
const THIN_RUN = 2;
/** An edge this long and straight (px) is a panel's or a row's border, not detail (see thinShare). */
const STRAIGHT_EDGE = 64;
/** The distinct-colour index of a pixel that is not opaque. */
const CLEAR = -1;
/** More distinct colours than this is a photo or a gradient: stop counting early. */
const MAX_DISTINCT = 16384;

export interface SnappedImage {
  /** Index into `palette` per pixel; 0 is the most common colour (the paper). */
  labels: Uint8Array;
  /**
   * Palette colours as RGBA keys (r << 24 | g << 16 | b << 8 | a, unsigned), most common first; last,
   * the picture's one translucent colour when it has one.
   */
  palette: number[];
}

/** Dominant-colour labels when the image is a fine-detail picture, else null. */
export function snapFineDetail(image: RgbaImage): SnappedImage | null {
  const { width: w, height: h, data } = image;
  const n = w * h;
  if (n < 64) return null;
  const found = distinctColors(data, n, distinctLimit(n));
  if (!found) return null;
  const { distinct, keys, counts, clear, clearKey } = found;
  const opaque = n - clear;
  if (opaque < 64 || keys.length > distinctLimit(opaque)) return null;
  const ranked = keys.map((_, index) => index).sort((a, b) => counts[b]! - counts[a]!);
  const dominant = dominantColors(keys, counts, ranked, opaque);
  if (!dominant || dominant.covered < opaque * MIN_COVERAGE) return null;
  const cores = coreCounts(distinct, keys, w, h, paperColors(distinct, keys, counts, dominant, opaque));
  const { colors, nearest } = inkPalette(keys, counts, ranked, dominant, cores);
  const palette = colors.map((c) => ((c << 8) | 255) >>> 0);
  // Clear pixels get a palette entry of their own (stacked-runs.ts paints it first); the ink palette
  // leaves room for it (at most 255 colours).
  const clearLabel = palette.length;
  if (clear > 0) palette.push(clearKey);
  const labels = snapLabels(distinct, n, nearest, clearLabel);
  if (thinShare(labels, w, h) < MIN_THIN_SHARE) return null;
  return { labels, palette };
}

/** Each pixel's palette label: that of its distinct colour, or `clearLabel`. */
function snapLabels(distinct: Int32Array, n: number, nearest: Uint8Array, clearLabel: number): Uint8Array {
  const labels = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const d = distinct[i]!;
    labels[i] = d === CLEAR ? clearLabel : nearest[d]!;
  }
  return labels;
}

/**
 * More distinct colours than this among `opaque` pixels and the dominant ones cannot reach
 * MIN_COVERAGE (each other colour takes at least one pixel), so counting stops there: photos give up
 * early.
 */
function distinctLimit(opaque: number): number {
  return Math.min(MAX_DISTINCT, MAX_DOMINANT + 1 + Math.floor(opaque * (1 - MIN_COVERAGE)));
}

/**
 * One pass: each opaque pixel gets the index of its distinct colour (runs skip the table), with
 * counts per index; null past `limit` distinct colours. The table is open addressing over typed
 * arrays (colour + 1, 0 = empty). A function of its own: V8 compiled this loop far worse inside
 * snapFineDetail.
 *
 * Translucency: soft edges over transparency are icons and logos, not screenshots, so null as soon
 * as a second RGBA value that is not opaque turns up. One may be there (graphviz's PNGs have a
 * half-clear column at the right edge; a hard-edged diagram may have a clear background): its
 * pixels are CLEAR, counted in `clear`, and kept exactly as `clearKey` (RGBA; -1: none).
 */
function distinctColors(
  data: Uint8Array | Uint8ClampedArray,
  n: number,
  limit: number,
): { distinct: Int32Array; keys: number[]; counts: Int32Array; clear: number; clearKey: number } | null {
  const size = 1 << Math.ceil(Math.log2(2 * limit + 2));
  const slotKey = new Int32Array(size);
  const slotIndex = new Int32Array(size);
  const keys: number[] = [];
  let counts = new Int32Array(256);
  // Reused between calls (scratch.ts): auto runs this on every non-flat image, photos included.
  const distinct = int32Scratch('fine-detail distinct', n);
  let lastKey = -1;
  let last = -1;
  let clear = 0;
  let clearKey = -1;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const alpha = data[o + 3]!;
    if (alpha !== 255) {
      const key = ((data[o]! << 24) | (data[o + 1]! << 16) | (data[o + 2]! << 8) | alpha) >>> 0;
      if (clearKey >= 0 && key !== clearKey) return null;
      clearKey = key;
      clear++;
      distinct[i] = CLEAR;
      continue;
    }
    const key = (data[o]! << 16) | (data[o + 1]! << 8) | data[o + 2]!;
    if (key !== lastKey) {
      lastKey = key;
      let slot = (Math.imul(key, 0x9e3779b1) >>> 0) & (size - 1);
      while (slotKey[slot] !== 0 && slotKey[slot] !== key + 1) slot = (slot + 1) & (size - 1);
      if (slotKey[slot] === 0) {
        if (keys.length === limit) return null;
        slotKey[slot] = key + 1;
        slotIndex[slot] = keys.length;
        keys.push(key);
        if (keys.length > counts.length) {
          const bigger = new Int32Array(counts.length * 2);
          bigger.set(counts);
          counts = bigger;
        }
      }
      last = slotIndex[slot]!;
    }
    distinct[i] = last;
    counts[last]! += 1;
  }
  return { distinct, keys, counts, clear, clearKey };
}

/**
 * Share of the boundary pixels (a 4-neighbour has another colour) that lie in a row or column run of
 * at most THIN_RUN px: high where outlines belong to lines and letters, low on large shapes. When
 * that falls short of MIN_THIN_SHARE it is counted again without the pixels along long straight
 * edges (the same two colours side by side for STRAIGHT_EDGE px or more: a panel's or a tinted
 * table row's border), which any engine keeps: a code diff's tinted rows made its text a minority
 * of the boundary (0.32; 0.65 without them), while logos stay at 0.20-0.26 either way.
 */
function thinShare(labels: Uint8Array, w: number, h: number): number {
  const thin = int32Scratch('fine-detail thin', w * h).fill(0);
  const markRuns = (start: number, step: number, length: number): void => {
    let runStart = 0;
    for (let k = 1; k <= length; k++) {
      if (k < length && labels[start + k * step] === labels[start + runStart * step]) continue;
      if (k - runStart <= THIN_RUN) for (let j = runStart; j < k; j++) thin[start + j * step] = 1;
      runStart = k;
    }
  };
  for (let y = 0; y < h; y++) markRuns(y * w, 1, w);
  for (let x = 0; x < w; x++) markRuns(x, w, h);
  const share = (skip: Uint8Array | null): number => {
    let boundary = 0;
    let thinBoundary = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (skip?.[i]) continue;
        const l = labels[i];
        const edge =
          (x > 0 && labels[i - 1] !== l) ||
          (x + 1 < w && labels[i + 1] !== l) ||
          (y > 0 && labels[i - w] !== l) ||
          (y + 1 < h && labels[i + w] !== l);
        if (!edge) continue;
        boundary++;
        thinBoundary += thin[i]!;
      }
    }
    return boundary === 0 ? 0 : thinBoundary / boundary;
  };
  const all = share(null);
  return all >= MIN_THIN_SHARE ? all : share(straightEdges(labels, w, h));
}

/**
 * Marks both sides of every long straight edge: where pixel p and its neighbour q (below, or to the
 * right) differ, and the same pair of colours continues for STRAIGHT_EDGE px along the edge.
 */
function straightEdges(labels: Uint8Array, w: number, h: number): Uint8Array {
  const straight = new Uint8Array(w * h);
  // across: the offset to the pixel on the other side; along: the step along the edge; lines: how many edges.
  const walk = (across: number, along: number, lines: number, length: number, first: (line: number) => number) => {
    for (let line = 0; line < lines; line++) {
      const start = first(line);
      let runStart = 0;
      for (let k = 0; k <= length; k++) {
        const p = start + k * along;
        const q = start + runStart * along;
        const same =
          k < length &&
          labels[p] !== labels[p + across] &&
          labels[p] === labels[q] &&
          labels[p + across] === labels[q + across];
        if (same) continue;
        if (k - runStart >= STRAIGHT_EDGE)
          for (let j = runStart; j < k; j++) straight[start + j * along] = straight[start + j * along + across] = 1;
        runStart = k < length && labels[p] !== labels[p + across] ? k : k + 1;
      }
    }
  };
  // Horizontal edges: rows y and y + 1; vertical edges: columns x and x + 1.
  walk(w, 1, h - 1, w, (y) => y * w);
  walk(1, w, w - 1, h, (x) => x);
  return straight;
}
