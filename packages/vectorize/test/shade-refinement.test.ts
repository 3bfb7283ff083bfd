import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPng } from '../bench/quality.ts';
import { snapFineDetail } from '../src/fine-detail.ts';
import { otsuThresholds, refineShades } from '../src/shade-refinement.ts';

const TEXT = join(import.meta.dirname, '..', 'fixtures', 'text');

/** Otsu's threshold by its definition: the t whose split (<= t, > t) has the largest between-class variance. */
function otsuByDefinition(values: number[], counts: number[]): number {
  let best = -1;
  let at = 0;
  for (let t = 0; t < 255; t++) {
    const below = values.flatMap((v, i) => (v <= t ? [[v, counts[i]!]] : []));
    const above = values.flatMap((v, i) => (v > t ? [[v, counts[i]!]] : []));
    const weight = (side: number[][]) => side.reduce((s, [, n]) => s + n!, 0);
    const mean = (side: number[][]) => side.reduce((s, [v, n]) => s + v! * n!, 0) / weight(side);
    if (below.length === 0 || above.length === 0) continue;
    const between = weight(below) * weight(above) * (mean(above) - mean(below)) ** 2;
    if (between > best) {
      best = between;
      at = t;
    }
  }
  return at;
}

const grey = (v: number) => (v << 16) | (v << 8) | v;

describe('shade refinement of the ink palette', () => {
  it("computes each channel's Otsu threshold as its definition gives it", () => {
    const keys = [0x1e1e1e, 0xf5f5f5, 0x6a9955, 0xce9178, 0x569cd6, 0x808080];
    const counts = Int32Array.from([5000, 3000, 120, 80, 200, 40]);
    const channel = (shift: number) => keys.map((k) => (k >> shift) & 255);
    expect(otsuThresholds(keys, counts)).toEqual(
      [16, 8, 0].map((shift) => otsuByDefinition(channel(shift), [...counts])),
    );
  });

  it('gives blends on the other side of the threshold than their shade a colour of their own, and moves shades to their means', () => {
    // White paper, black ink, and two blends a half shade (127) took: 153 and 112. The threshold
    // falls at 112 (worked out by hand: the split {0, 112} | {153, 255} has the largest
    // between-class variance), so 112 lies below it and the half shade above.
    const colors = [grey(255), grey(0), grey(127)];
    const keys = [grey(255), grey(0), grey(153), grey(112)];
    const counts = Int32Array.from([1000, 200, 30, 30]);
    const nearest = Uint8Array.from([0, 1, 2, 2]);
    expect(otsuThresholds(keys, counts)).toEqual([112, 112, 112]);
    refineShades(colors, 2, 255, keys, counts, nearest);
    expect(colors).toEqual([grey(255), grey(0), grey(153), grey(112)]);
    expect([...nearest]).toEqual([0, 1, 2, 3]);
  });

  it('leaves the palette as it is when no colour crosses a threshold, but for the shades taking their means', () => {
    const colors = [grey(255), grey(0), grey(127)];
    // As much ink as paper: the threshold falls at 0, below the blends and their shade.
    const keys = [grey(255), grey(0), grey(200), grey(180)];
    const counts = Int32Array.from([1000, 1000, 10, 30]);
    const nearest = Uint8Array.from([0, 1, 2, 2]);
    expect(otsuThresholds(keys, counts)).toEqual([0, 0, 0]);
    refineShades(colors, 2, 255, keys, counts, nearest);
    // (200 * 10 + 180 * 30) / 40 = 185.
    expect(colors).toEqual([grey(255), grey(0), grey(185)]);
    expect([...nearest]).toEqual([0, 1, 2, 2]);
  });

  it('keeps every pixel of a page with a dark side bar on the side of each Otsu threshold it was on', async () => {
    const image = await loadPng(join(TEXT, 'sidenav.png'));
    const snapped = snapFineDetail(image)!;
    const n = image.width * image.height;
    const distinct = new Map<number, number>();
    const rgb = (p: number) => (image.data[4 * p]! << 16) | (image.data[4 * p + 1]! << 8) | image.data[4 * p + 2]!;
    for (let p = 0; p < n; p++) distinct.set(rgb(p), (distinct.get(rgb(p)) ?? 0) + 1);
    const thresholds = otsuThresholds([...distinct.keys()], Int32Array.from(distinct.values()));
    let crossed = 0;
    let moved = 0;
    for (let p = 0; p < n; p++) {
      const key = snapped.palette[snapped.labels[p]!]! >>> 8;
      if (key !== rgb(p)) moved++;
      for (const [c, shift] of [16, 8, 0].entries())
        if (((rgb(p) >> shift) & 255) > thresholds[c]! !== ((key >> shift) & 255) > thresholds[c]!) crossed++;
    }
    // The palette still moves thousands of anti-aliased pixels; none to the other side.
    expect(moved).toBeGreaterThan(1000);
    expect(crossed).toBe(0);
  });
});
