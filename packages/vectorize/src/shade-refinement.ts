/**
 * The last step of the ink palette (ink-palette.ts): once every distinct colour has its palette
 * colour, two refinements of the snapped colours.
 *
 * 1. **No pixel crosses the page's threshold.** OCR engines binarize a page with one global
 *    threshold (tesseract: Otsu's, per colour channel), and where a glyph's edge falls decides
 *    where one letter or word ends and the next begins. Snapping a blend to the half-way shade put
 *    every blend from a quarter to three quarters of the way on one side of that threshold, which
 *    sits near half-way between a dark panel and light paper: glyphs came out a fraction of a pixel
 *    thinner or bolder to the reader, and it split and misread words that look the same to the
 *    eye (a dark side bar beside a table at 80 %: 0.67 of its words read, the exact colours 1.00).
 *    So the colours whose palette colour lies across any channel's Otsu threshold from their own
 *    (computed over the picture's pixels) get a palette colour of their own: the mean of those
 *    colours, one per palette colour and side, which lies on their side. Over the OCR benchmark's
 *    own pictures and every page at 80 % and 90 % (71 pictures, three reads each) the words read
 *    rose from 0.970 to 0.988, and pictures under 0.9 fell from 10 to 5, for 1.8 % more bytes
 *    (a diagram whose threshold cuts through its lines' half shades: 11.5 %, for +2.9 dB).
 * 2. **Each blend shade is the mean of the colours snapped to it** (pixel-weighted), not the exact
 *    middle of its two ends: the least-squares choice, +0.1 to +1.9 dB PSNR on those pictures for
 *    the same bytes. The paper and ink colours stay exact.
 */

import { b, g, r } from './rgb-key.ts';

/**
 * Otsu's threshold per channel (red, green, blue) over distinct colours `keys` (RGB) with their
 * pixel `counts`: the value t that best splits the histogram into values <= t and > t.
 */
export function otsuThresholds(keys: readonly number[], counts: Int32Array): [number, number, number] {
  const histogram = new Float64Array(256);
  const threshold = (channel: (k: number) => number): number => {
    histogram.fill(0);
    let total = 0;
    let sum = 0;
    for (let d = 0; d < keys.length; d++) {
      const v = channel(keys[d]!);
      histogram[v]! += counts[d]!;
      total += counts[d]!;
      sum += v * counts[d]!;
    }
    let best = -1;
    let at = 0;
    let below = 0;
    let belowSum = 0;
    for (let t = 0; t < 255; t++) {
      below += histogram[t]!;
      belowSum += t * histogram[t]!;
      const above = total - below;
      if (below === 0) continue;
      if (above === 0) break;
      const gap = (sum - belowSum) / above - belowSum / below;
      const between = gap * gap * below * above;
      if (between > best) {
        best = between;
        at = t;
      }
    }
    return at;
  };
  return [threshold(r), threshold(g), threshold(b)];
}

/** Three bits: whether each channel of `key` lies above its threshold. */
function sides(key: number, [tr, tg, tb]: readonly number[]): number {
  return (r(key) > tr! ? 1 : 0) | (g(key) > tg! ? 2 : 0) | (b(key) > tb! ? 4 : 0);
}

/** Pixel-weighted sums of colours: r, g, b and the pixel count, four per group. */
class ColorSums {
  readonly sums: Float64Array;

  constructor(groups: number) {
    this.sums = new Float64Array(groups * 4);
  }

  add(group: number, key: number, pixels: number): void {
    const at = group * 4;
    this.sums[at]! += pixels * r(key);
    this.sums[at + 1]! += pixels * g(key);
    this.sums[at + 2]! += pixels * b(key);
    this.sums[at + 3]! += pixels;
  }

  /** The group's mean colour (RGB key), or undefined when it has no pixel. */
  mean(group: number): number | undefined {
    const at = group * 4;
    const n = this.sums[at + 3]!;
    if (n === 0) return undefined;
    const channel = (i: number) => Math.round(this.sums[at + i]! / n);
    return (channel(0) << 16) | (channel(1) << 8) | channel(2);
  }
}

/**
 * Refines a snapped palette in place (see the top of this file). `colors`: the palette (RGB keys),
 * whose entries from `firstShade` on are blend shades; `nearest`: per distinct colour of `keys`
 * (with `counts` pixels), its palette index; the palette grows to `maxColors` at most.
 */
export function refineShades(
  colors: number[],
  firstShade: number,
  maxColors: number,
  keys: readonly number[],
  counts: Int32Array,
  nearest: Uint8Array,
): void {
  keepThresholdSides(colors, maxColors, keys, counts, nearest);
  centreShades(colors, firstShade, keys, counts, nearest);
}

/** Colours snapped across a channel's threshold get the mean of their group (palette colour, side). */
function keepThresholdSides(
  colors: number[],
  maxColors: number,
  keys: readonly number[],
  counts: Int32Array,
  nearest: Uint8Array,
): void {
  const thresholds = otsuThresholds(keys, counts);
  const colorSides = colors.map((key) => sides(key, thresholds));
  // Group id: palette index * 8 + the colour's sides; groups are numbered in order of first use.
  const ids = new Map<number, number>();
  const groupOf = new Int32Array(keys.length).fill(-1);
  for (let d = 0; d < keys.length; d++) {
    const own = sides(keys[d]!, thresholds);
    if (own === colorSides[nearest[d]!]) continue;
    const id = nearest[d]! * 8 + own;
    if (!ids.has(id)) ids.set(id, ids.size);
    groupOf[d] = ids.get(id)!;
  }
  const groups = Math.min(ids.size, maxColors - colors.length);
  if (groups <= 0) return;
  // Groups past the palette's room keep the colour they had.
  const first = colors.length;
  const sums = new ColorSums(groups);
  for (let d = 0; d < keys.length; d++) {
    const group = groupOf[d]!;
    if (group < 0 || group >= groups) continue;
    sums.add(group, keys[d]!, counts[d]!);
    nearest[d] = first + group;
  }
  for (let group = 0; group < groups; group++) colors.push(sums.mean(group)!);
}

/** Each palette colour from `firstShade` on becomes the mean of the colours snapped to it. */
function centreShades(
  colors: number[],
  firstShade: number,
  keys: readonly number[],
  counts: Int32Array,
  nearest: Uint8Array,
): void {
  const sums = new ColorSums(colors.length - firstShade);
  for (let d = 0; d < keys.length; d++) {
    if (nearest[d]! >= firstShade) sums.add(nearest[d]! - firstShade, keys[d]!, counts[d]!);
  }
  for (let p = firstShade; p < colors.length; p++) colors[p] = sums.mean(p - firstShade) ?? colors[p]!;
}
