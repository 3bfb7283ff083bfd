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
 * 3. Each distinct colour goes to the nearest palette colour; a mix of two goes to the rarer of the
 *    two (the ink) when the ink's share of the mix is at least INK_SHARE, so 1-px strokes, whose
 *    pixels are half-covered at best, stay continuous rather than fading into the paper.
 */

export const MAX_DOMINANT = 24;
export const DOMINANT_SHARE = 0.002;
const MAX_PALETTE = 64;
const MERGE = 10;
const MIX = 10;
const INK_SHARE = 0.4;
const MIN_INK_PIXELS = 6;
const MIN_CORE_SHARE = 0.5;
/** A core colour that is also a mix joins only this far from every palette colour (RGB). */
const MIX_INK_GAP = 32;
/** RGB distance below which two ink colours look the same (about CIEDE2000 2-3 on greys). */
const INK_JND = 6;
/** Share of its pixels that must be stroke cores for a colour near another to count as ink. */
const INK_CORE_SHARE = 0.95;
/** Pixels such an ink needs (a word or two): fewer cost more bytes than a shift of a few dozen pixels is worth. */
const NEAR_INK_MIN_PIXELS = 20;

export interface InkPalette {
  /** Palette colours as RGB keys (r << 16 | g << 8 | b), most common first. */
  colors: number[];
  /** For each distinct colour (by index), the palette index it becomes. */
  nearest: Uint8Array;
}

const r = (k: number) => (k >> 16) & 255;
const g = (k: number) => (k >> 8) & 255;
const b = (k: number) => k & 255;

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
function bestMix(key: number, colors: readonly number[], near: number): { other: number; t: number } | null {
  let best: { other: number; t: number } | null = null;
  let bestD2 = MIX * MIX;
  for (let p = 0; p < colors.length; p++) {
    if (p === near) continue;
    const { t, d2 } = onSegment(key, colors[near]!, colors[p]!);
    if (t > 0 && t < 1 && d2 <= bestD2) {
      bestD2 = d2;
      best = { other: p, t };
    }
  }
  return best;
}

/** Whether `key` is a mix of any two palette colours (within MIX of the segment between them). */
function anyMix(key: number, colors: readonly number[]): boolean {
  for (let p = 0; p < colors.length; p++) {
    for (let q = p + 1; q < colors.length; q++) {
      const { t, d2 } = onSegment(key, colors[p]!, colors[q]!);
      if (t > 0 && t < 1 && d2 <= MIX * MIX) return true;
    }
  }
  return false;
}

export interface Dominant {
  colors: number[];
  /** Pixels of each colour, merged ones included. */
  weights: number[];
  /** Pixels within MERGE of a dominant colour. */
  covered: number;
}

/**
 * The dominant colours and the share of pixels they cover (merged colours included), or null when
 * fewer than two colours are dominant. `ranked` lists distinct colour indexes, most common first.
 */
export function dominantColors(
  keys: readonly number[],
  counts: Int32Array,
  ranked: readonly number[],
  pixels: number,
): Dominant | null {
  const minCount = Math.max(4, pixels * DOMINANT_SHARE);
  const colors: number[] = [];
  const weights: number[] = [];
  let covered = 0;
  for (const index of ranked) {
    const count = counts[index]!;
    const key = keys[index]!;
    const near = colors.length > 0 ? nearestIndex(key, colors) : null;
    if (near && near.d2 <= MERGE * MERGE) {
      weights[near.index]! += count;
      covered += count;
    } else if (count >= minCount && colors.length < MAX_DOMINANT) {
      colors.push(key);
      weights.push(count);
      covered += count;
    }
  }
  return colors.length < 2 ? null : { colors, covered, weights };
}

/**
 * Per distinct colour, how many of its pixels stand out from the paper (the most common colour) at
 * least as far as each of their 4 neighbours do. Text and lines drawn in a colour have such cores
 * (a stroke's middle); anti-aliasing shades sit beside a stronger pixel nearly everywhere.
 */
export function coreCounts(distinct: Int32Array, keys: readonly number[], w: number, h: number): Int32Array {
  const paper = keys[distinct[0]!]!;
  const contrast = new Int32Array(keys.length);
  for (let d = 0; d < keys.length; d++) contrast[d] = distance2(keys[d]!, paper);
  const cores = new Int32Array(keys.length);
  for (let y = 0, i = 0; y < h; y++) {
    for (let x = 0; x < w; x++, i++) {
      const d = distinct[i]!;
      const c = contrast[d]!;
      if (x > 0 && contrast[distinct[i - 1]!]! > c) continue;
      if (x + 1 < w && contrast[distinct[i + 1]!]! > c) continue;
      if (y > 0 && contrast[distinct[i - w]!]! > c) continue;
      if (y + 1 < h && contrast[distinct[i + w]!]! > c) continue;
      cores[d]! += 1;
    }
  }
  return cores;
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
  const weights = [...dominant.weights];
  for (const index of ranked) {
    const count = counts[index]!;
    if (count < MIN_INK_PIXELS || colors.length === MAX_PALETTE) break;
    const key = keys[index]!;
    const near = nearestIndex(key, colors);
    if (near.d2 <= MERGE * MERGE) continue;
    // Grey ink lies on the line between black text and white paper as the text's own fringe
    // does: a mix only when its pixels are not the cores of strokes (see coreCounts).
    if (anyMix(key, colors) && (cores[index]! < count * MIN_CORE_SHARE || near.d2 < MIX_INK_GAP * MIX_INK_GAP))
      continue;
    colors.push(key);
    weights.push(count);
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
    weights.push(count);
  }
  const nearest = new Uint8Array(keys.length);
  for (let d = 0; d < keys.length; d++) {
    const key = keys[d]!;
    const near = nearestIndex(key, colors);
    let choice = near.index;
    if (near.d2 > MERGE * MERGE) {
      const mix = bestMix(key, colors, near.index);
      if (mix) {
        // t is the share of `other` in the mix; the ink is the rarer end.
        const otherIsInk = weights[mix.other]! < weights[near.index]!;
        const inkShare = otherIsInk ? mix.t : 1 - mix.t;
        const ink = otherIsInk ? mix.other : near.index;
        choice = inkShare >= INK_SHARE ? ink : otherIsInk ? near.index : mix.other;
      }
    }
    nearest[d] = choice;
  }
  return { colors, nearest };
}
