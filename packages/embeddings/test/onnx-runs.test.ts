import { describe, expect, it } from 'vitest';
import { planRuns } from '../src/onnx/runs.ts';

const padded = (lengths: number[], [start, end]: [number, number]) => (end - start) * (lengths[end - 1] as number);
const real = (lengths: number[], [start, end]: [number, number]) =>
  lengths.slice(start, end).reduce((a, b) => a + b, 0);

describe('planRuns: a sorted batch split into model runs', () => {
  const lengths = Array.from({ length: 32 }, (_, i) => 8 + Math.floor((i * 19) / 32));

  it('covers every text once, in order, each run within the padding slack and the token bound', () => {
    const runs = planRuns(lengths, 16_384, 0.1);
    expect(runs[0]?.[0]).toBe(0);
    expect(runs.at(-1)?.[1]).toBe(lengths.length);
    runs.forEach((run, i) => {
      if (i > 0) expect(run[0]).toBe(runs[i - 1]?.[1]);
      expect(run[1]).toBeGreaterThan(run[0]);
      expect(padded(lengths, run)).toBeLessThanOrEqual(real(lengths, run) * 1.1);
    });
    expect(runs.length).toBeGreaterThan(1);
  });

  it('keeps the batch whole with unbounded slack (a GPU), and splits at the token bound', () => {
    expect(planRuns(lengths, 16_384, Number.POSITIVE_INFINITY)).toEqual([[0, 32]]);
    const runs = planRuns(lengths, 100, Number.POSITIVE_INFINITY);
    for (const run of runs) expect(padded(lengths, run)).toBeLessThanOrEqual(100);
    expect(runs.length).toBeGreaterThan(3);
  });

  it('gives a text longer than the bound a run of its own, and equal lengths one run', () => {
    expect(planRuns([5, 500], 100, 0.1)).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(planRuns([9, 9, 9, 9], 16_384, 0)).toEqual([[0, 4]]);
    expect(planRuns([], 100, 0.1)).toEqual([]);
  });
});
