/**
 * The figures the benchmarks print, in one place, so that a median or a p95 means the same in every
 * bench and README table. Both sort a copy: callers pass sorted and unsorted arrays alike, and go on
 * using them after.
 */

const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/**
 * The true median (the mean of the two middle values for an even count), which is what the README
 * figures call a median; NaN for no values, so that an empty run cannot pass for a fast one.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = ascending(values);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Nearest rank: the smallest sample that at least p % of the samples do not exceed, so a latency
 * percentile is always one that was measured. p from 0 to 100, as in "p95" (anything else throws
 * rather than quietly giving the minimum or the maximum); NaN for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be from 0 to 100, got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = ascending(values);
  // p * n before dividing: (7 / 100) * 100 is 7.000000000000001, a rank too high once rounded up.
  return sorted[Math.max(0, Math.ceil((p * sorted.length) / 100) - 1)]!;
}
