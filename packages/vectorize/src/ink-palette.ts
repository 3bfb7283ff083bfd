/**
 * The palette a diagram or screenshot is snapped to, and which palette colour each of its distinct
 * colours becomes (see fine-detail.ts for when an image qualifies).
 *
 * Text and lines are the rare colours: an 11 px label in #202124 has a few dozen pixels of its exact
 * ink, far below any share that makes a fill "dominant", and its anti-aliased fringe spreads over
 * dozens of greys between ink and paper. Snapping to the dominant colours alone sent such ink to the
 * nearest fill (dark text came out mid-grey, syntax colours of code turned into one another). So:
 *
 * 1. Dominant colours (each at least DOMINANT_SHARE of the pixels), as before; a colour within MERGE
 *    of one already taken counts with it (grain on a scanned page is not a new colour).
 * 2. Ink: every further colour with at least MIN_INK_PIXELS pixels that is neither within MERGE of
 *    a palette colour nor a mix of two of them (within MIX of the segment between them in RGB, as
 *    anti-aliasing makes) joins the palette, up to MAX_PALETTE colours: its exact colour is kept.
 * 3. Each distinct colour goes to the nearest palette colour; a mix of two goes to the nearest of
 *    BLEND_LEVELS + 1 shades between them (paper, half, ink), which join the palette
 *    as they are used. With two shades only (paper or ink), glyph edges moved by up to half a pixel,
 *    and OCR lost words on 9-px text that read as the source at 1x (see BLEND_LEVELS).
 * 4. Where that lands further than FAR from the colour (it is no mix of its nearest palette colour,
 *    or its shade is coarse), the nearest shade of any two palette colours is taken instead: the
 *    nearest colour alone can be another hue, and a terminal's grey comment text (#676767 on
 *    #1e1e1e, nearest in RGB a blue ink's half shade) came out blue. When the colour is no mix of
 *    its nearest colour at all, that shade is taken even when it is further in RGB: a blue line's
 *    pale fringe on white went to a pale green fill nearer in RGB, but further to the eye
 *    (CIEDE2000 16.6 against white's 9.8).
 * 5. No colour is snapped across the page's Otsu threshold (as OCR binarizes it), and each blend
 *    shade is the mean of the colours snapped to it (shade-refinement.ts).
 */

import { MixBoxes } from './mix-boxes.ts';
import { b, g, r } from './rgb-key.ts';
import { refineShades } from './shade-refinement.ts';

export const MAX_DOMINANT = 24;
export const DOMINANT_SHARE = 0.002;
const MAX_PALETTE = 64;
/** Palette colours at most, blend shades included (labels are bytes). */
const MAX_WITH_BLENDS = 255;
const MERGE = 10;
const MIX = 10;
/**
 * Steps from one end of a mix to the other: 2 gives paper, half and ink. Chosen on the OCR
 * benchmark's own pictures (never the held-out ones), reading each render at 2x, 3x and 4x, since
 * one enlargement alone flips words on 9-px text: with 1 step (paper or ink; a blend went to the
 * ink from 40 %) the editor page kept 0.94, 0.74 and 0.92 of its words; with 2 steps 0.94, 0.87
 * and 0.96; with 3, 0.88, 0.91 and 0.92; with 4, 0.81 at 2x. Every other picture kept at least
 * 0.95 with 2. The half shade costs bytes (one more layer per ink): 4-27 % on those pictures.
 */
const BLEND_LEVELS = 2;
/**
 * A colour whose snapped shade would be further than this from it (RGB) gets the nearest shade of
 * any two palette colours instead (see inkPalette). Chosen on the OCR pictures: with 32 a
 * terminal's grey comment fringe still went 6.1 CIEDE2000 off; 24 costs 3.5 % bytes, 16 7 %, 12
 * 10 %, for the same worst errors.
 */
const FAR = 24;
/** With the palette full, a blend goes to the end `to` from this share of it, else to `from`. */
const INK_SHARE = 0.5;
const MIN_INK_PIXELS = 6;
const MIN_CORE_SHARE = 0.5;
/** A core colour that is also a mix joins only this far from every palette colour (RGB). */
const MIX_INK_GAP = 32;
/** RGB distance below which two ink colours look the same (about CIEDE2000 2-3 on greys). */
const INK_JND = 6;
/** Share of its pixels that must be stroke cores for a colour near another to count as ink. */
const INK_CORE_SHARE = 0.95;
/**
 * Pixels such an ink needs: fewer cost more bytes than a shift of so few pixels is worth. 9-px
 * comments in a code review page (chromium) showed their exact colour in only 10 pixels, and came
 * out CIEDE2000 11.7 off at 20; at 10, 0-5 % more bytes on the OCR pictures.
 */
const NEAR_INK_MIN_PIXELS = 10;
/** A dominant colour covering this share of the pixels may be the paper text sits on (coreCounts). */
const PAPER_SHARE = 0.1;
const MAX_PAPERS = 3;

export interface InkPalette {
  /** Palette colours as RGB keys (r << 16 | g << 8 | b), most common first. */
  colors: number[];
  /** For each distinct colour (by index), the palette index it becomes. */
  nearest: Uint8Array;
}

function distance2(a: number, c: number): number {
  const dr = r(a) - r(c);
  const dg = g(a) - g(c);
  const db = b(a) - b(c);
  return dr * dr + dg * dg + db * db;
}

/** Where `key` falls along the segment a→c (0 at a, 1 at c) and its squared distance from it. */
function onSegment(key: number, a: number, c: number): { t: number; d2: number } {
  const ur = r(c) - r(a);
  const ug = g(c) - g(a);
  const ub = b(c) - b(a);
  const length2 = ur * ur + ug * ug + ub * ub;
  if (length2 === 0) return { t: 0, d2: distance2(key, a) };
  const vr = r(key) - r(a);
  const vg = g(key) - g(a);
  const vb = b(key) - b(a);
  const t = Math.max(0, Math.min(1, (vr * ur + vg * ug + vb * ub) / length2));
  const dr = vr - t * ur;
  const dg = vg - t * ug;
  const db = vb - t * ub;
  return { t, d2: dr * dr + dg * dg + db * db };
}

function nearestIndex(key: number, colors: readonly number[]): { index: number; d2: number } {
  let index = 0;
  let d2 = Number.POSITIVE_INFINITY;
  for (let p = 0; p < colors.length; p++) {
    const d = distance2(key, colors[p]!);
    if (d < d2) {
      d2 = d;
      index = p;
    }
  }
  return { index, d2 };
}

/** The best mix of the nearest palette colour with another that explains `key`, or null. */
function bestMix(
  key: number,
  colors: readonly number[],
  boxes: MixBoxes,
  near: number,
): { other: number; t: number } | null {
  let best: { other: number; t: number } | null = null;
  let bestD2 = MIX * MIX;
  for (let p = 0; p < colors.length; p++) {
    if (p === near || !boxes.holds(key, near, p)) continue;
    const { t, d2 } = onSegment(key, colors[near]!, colors[p]!);
    if (t > 0 && t < 1 && d2 <= bestD2) {
      bestD2 = d2;
      best = { other: p, t };
    }
  }
  return best;
}

/** Whether `key` is a mix of any two palette colours (within MIX of the segment between them). */
function anyMix(key: number, colors: readonly number[], boxes: MixBoxes): boolean {
  for (let p = 0; p < colors.length; p++) {
    for (let q = p + 1; q < colors.length; q++) {
      if (!boxes.holds(key, p, q)) continue;
      const { t, d2 } = onSegment(key, colors[p]!, colors[q]!);
      if (t > 0 && t < 1 && d2 <= MIX * MIX) return true;
    }
  }
  return false;
}

/** The colour `step` BLEND_LEVELS-ths of the way from `a` to `c` (RGB keys). */
function shadeKey(a: number, c: number, step: number): number {
  const q = step / BLEND_LEVELS;
  // A loop, not a closure per call: the bundle keeps function names, which costs a call each.
  let key = 0;
  for (let shift = 16; shift >= 0; shift -= 8) {
    const lo = (a >> shift) & 255;
    key |= Math.round(lo + q * (((c >> shift) & 255) - lo)) << shift;
  }
  return key;
}

/** The shade BlendShades snaps a mix of colors[from] and colors[to] with `t` of `to` to. */
function shadeOf(colors: readonly number[], from: number, to: number, t: number): number {
  return shadeKey(colors[from]!, colors[to]!, Math.round(t * BLEND_LEVELS));
}

/**
 * Of every mix of two palette colours that explains `key` (within MIX of their segment), the one
 * whose shade (paper, half or ink, as BlendShades snaps it) comes nearest `key` (`off`, squared
 * RGB distance); or null.
 */
function closestShade(
  key: number,
  colors: readonly number[],
  boxes: MixBoxes,
): { from: number; to: number; t: number; off: number } | null {
  let best: { from: number; to: number; t: number; off: number } | null = null;
  for (let p = 0; p < colors.length; p++) {
    for (let q = p + 1; q < colors.length; q++) {
      if (!boxes.holds(key, p, q)) continue;
      const { t, d2 } = onSegment(key, colors[p]!, colors[q]!);
      if (!(t > 0 && t < 1 && d2 <= MIX * MIX)) continue;
      const off = distance2(key, shadeOf(colors, p, q, t));
      if (!best || off < best.off) best = { from: p, to: q, t, off };
    }
  }
  return best;
}

export interface Dominant {
  colors: number[];
  /** Pixels within MERGE of a dominant colour. */
  covered: number;
}

/**
 * The dominant colours and the share of pixels they cover (merged colours included), or null when
 * none is. `ranked` lists distinct colour indexes, most common first. One is enough: a terminal
 * page at 90 % has only its paper (each ANSI text colour under DOMINANT_SHARE), and asking for two
 * sent it to spline, which kept none of its words; the inks join in inkPalette.
 */
export function dominantColors(
  keys: readonly number[],
  counts: Int32Array,
  ranked: readonly number[],
  pixels: number,
): Dominant | null {
  const minCount = Math.max(4, pixels * DOMINANT_SHARE);
  const colors: number[] = [];
  let covered = 0;
  for (const index of ranked) {
    const count = counts[index]!;
    const key = keys[index]!;
    const near = colors.length > 0 ? nearestIndex(key, colors) : null;
    if (near && near.d2 <= MERGE * MERGE) {
      covered += count;
    } else if (count >= minCount && colors.length < MAX_DOMINANT) {
      colors.push(key);
      covered += count;
    }
  }
  return colors.length === 0 ? null : { colors, covered };
}

/**
 * Per distinct colour, how many of its pixels stand out from the paper at least as far as each of
 * their 4 neighbours do. Text and lines drawn in a colour have such cores (a stroke's middle);
 * anti-aliasing shades sit beside a stronger pixel nearly everywhere. A page may have more than one
 * paper (a dark banner over a white body): counted against each of `papers` (RGB keys), and the
 * most a colour gets from any is its count. Against the first pixel's colour alone, grey 10-px
 * text on the white body of a page with a dark banner at the top had no cores, its commoner
 * fringe shade became the ink, and the text came out CIEDE2000 8.5 too light. The papers' own
 * counts stay 0.
 */
export function coreCounts(
  distinct: Int32Array,
  keys: readonly number[],
  w: number,
  h: number,
  papers: readonly number[],
): Int32Array {
  const k = keys.length;
  const count = papers.length;
  // Per paper, offset by one: index 0 is a clear pixel (distinct -1), which stands out from nothing.
  const contrast = new Int32Array(count * (k + 1));
  papers.forEach((paper, p) => {
    for (let d = 0; d < k; d++) contrast[p * (k + 1) + d + 1] = distance2(keys[d]!, paper);
  });
  const counted = new Int32Array(count * k);
  // The papers' own pixels (most of a page) are skipped: their cores are never asked for.
  const skip = new Uint8Array(k + 1);
  skip[0] = 1;
  for (let d = 0; d < k; d++) if (papers.includes(keys[d]!)) skip[d + 1] = 1;
  // One pass for every paper: the neighbours are read once.
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      const d = distinct[i]!;
      if (skip[d + 1]) continue;
      const left = x > 0 ? distinct[i - 1]! + 1 : 0;
      const right = x + 1 < w ? distinct[i + 1]! + 1 : 0;
      const up = y > 0 ? distinct[i - w]! + 1 : 0;
      const down = y + 1 < h ? distinct[i + w]! + 1 : 0;
      for (let p = 0, base = 0; p < count; p++, base += k + 1) {
        const c = contrast[base + d + 1]!;
        if (contrast[base + left]! > c || contrast[base + right]! > c) continue;
        if (contrast[base + up]! > c || contrast[base + down]! > c) continue;
        counted[p * k + d]! += 1;
      }
    }
  }
  const cores = new Int32Array(k);
  for (let p = 0; p < count; p++)
    for (let d = 0; d < k; d++) if (counted[p * k + d]! > cores[d]!) cores[d] = counted[p * k + d]!;
  return cores;
}

/**
 * The colours text may sit on: the first opaque pixel's, and every dominant colour covering at least
 * PAPER_SHARE of the opaque pixels (at most MAX_PAPERS in all).
 */
export function paperColors(
  distinct: Int32Array,
  keys: readonly number[],
  counts: Int32Array,
  dominant: Dominant,
  opaque: number,
): number[] {
  let first = 0;
  while (distinct[first]! < 0) first++;
  const papers = [keys[distinct[first]!]!];
  for (const key of dominant.colors) {
    if (papers.length === MAX_PAPERS) break;
    const index = keys.indexOf(key);
    if (!papers.includes(key) && index >= 0 && counts[index]! >= opaque * PAPER_SHARE) papers.push(key);
  }
  return papers;
}

/** Adds the ink colours to the dominant ones and maps every distinct colour to the palette. */
export function inkPalette(
  keys: readonly number[],
  counts: Int32Array,
  ranked: readonly number[],
  dominant: Dominant,
  cores: Int32Array,
): InkPalette {
  const colors = [...dominant.colors];
  // Every palette colour before the blend shades, which are never an end of a mix.
  const boxes = new MixBoxes(MAX_PALETTE, MIX);
  for (const key of colors) boxes.add(key);
  for (const index of ranked) {
    const count = counts[index]!;
    if (count < MIN_INK_PIXELS || colors.length === MAX_PALETTE) break;
    const key = keys[index]!;
    const near = nearestIndex(key, colors);
    if (near.d2 <= MERGE * MERGE) continue;
    // Grey ink lies on the line between black text and white paper as the text's own fringe
    // does: a mix only when its pixels are not the cores of strokes (see coreCounts).
    if (anyMix(key, colors, boxes) && (cores[index]! < count * MIN_CORE_SHARE || near.d2 < MIX_INK_GAP * MIX_INK_GAP))
      continue;
    colors.push(key);
    boxes.add(key);
  }
  // Text drawn in a rare colour close to a commoner one (grey-blue captions beside a fringe
  // shade of the body text, a terminal's dim timestamps) was taken for that colour, a visible
  // shift (CIEDE2000 3-4.5 measured). A colour whose pixels are mostly stroke cores is ink: it
  // joins the palette unless one within INK_JND (about a just-noticeable difference) is there.
  for (const index of ranked) {
    const count = counts[index]!;
    if (count < NEAR_INK_MIN_PIXELS || colors.length === MAX_PALETTE) break;
    if (cores[index]! < count * INK_CORE_SHARE) continue;
    const key = keys[index]!;
    if (nearestIndex(key, colors).d2 <= INK_JND * INK_JND) continue;
    colors.push(key);
    boxes.add(key);
  }
  const nearest = new Uint8Array(keys.length);
  const inks = [...colors];
  const blends = new BlendShades(colors);
  for (let d = 0; d < keys.length; d++) {
    const key = keys[d]!;
    const near = nearestIndex(key, inks);
    let choice = near.index;
    if (near.d2 > MERGE * MERGE) {
      const mix = bestMix(key, inks, boxes, near.index);
      if (mix) choice = blends.shade(near.index, mix.other, mix.t);
      const off = mix ? distance2(key, shadeOf(inks, near.index, mix.other, mix.t)) : near.d2;
      if (off > FAR * FAR) {
        const other = closestShade(key, inks, boxes);
        // No mix of its nearest colour but a mix of two others: that shade, even when further in
        // RGB (the nearest colour is another hue; rule 4 above).
        if (other && (other.off < off || !mix)) choice = blends.shade(other.from, other.to, other.t);
      }
    }
    nearest[d] = choice;
  }
  refineShades(colors, inks.length, MAX_WITH_BLENDS, keys, counts, nearest);
  return { colors, nearest };
}

/** The shades between two palette colours that blends snap to, added to the palette on first use. */
class BlendShades {
  private readonly index: Map<number, number>;

  constructor(private readonly colors: number[]) {
    this.index = new Map(colors.map((key, i) => [key, i]));
  }

  /** The palette index for a mix of `from` and `to` with `t` of `to` (0-1). */
  shade(from: number, to: number, t: number): number {
    const step = Math.round(t * BLEND_LEVELS);
    if (step === 0) return from;
    if (step === BLEND_LEVELS) return to;
    const key = shadeKey(this.colors[from]!, this.colors[to]!, step);
    const known = this.index.get(key);
    if (known !== undefined) return known;
    if (this.colors.length === MAX_WITH_BLENDS) return t >= INK_SHARE ? to : from;
    this.colors.push(key);
    this.index.set(key, this.colors.length - 1);
    return this.colors.length - 1;
  }
}
