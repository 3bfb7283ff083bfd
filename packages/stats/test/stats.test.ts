import { describe, expect, it } from 'vitest';
import { median, percentile } from '../src/index.ts';

describe('median', () => {
  it('is the middle value of an odd count', () => {
    expect(median([7, 1, 3])).toBe(3);
  });

  it('is the mean of the two middle values of an even count', () => {
    expect(median([4, 1, 10, 2])).toBe(3);
  });

  it('leaves an unsorted input as it was', () => {
    const values = [5, 3, 9, 1];
    median(values);
    expect(values).toEqual([5, 3, 9, 1]);
  });

  it('is NaN for no values', () => {
    expect(median([])).toBeNaN();
  });
});

describe('percentile', () => {
  // 1..20 shuffled: the nearest-rank p-th percentile of 1..n is ceil(p * n / 100), at least 1.
  const values = [13, 2, 20, 7, 1, 16, 9, 4, 18, 11, 5, 15, 3, 19, 8, 12, 6, 17, 10, 14];

  it('gives the nearest rank of 0, 50, 95 and 100', () => {
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 50)).toBe(10);
    expect(percentile(values, 95)).toBe(19);
    expect(percentile(values, 100)).toBe(20);
  });

  it('is always a sample, and the same for sorted input', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([4, 3, 2, 1], 50)).toBe(2);
    expect(percentile([10, 20, 30], 95)).toBe(30);
  });

  it('does not lose a whole rank to rounding', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 7)).toBe(7);
    expect(percentile(hundred, 99)).toBe(99);
  });

  it('leaves an unsorted input as it was', () => {
    const copy = [...values];
    percentile(values, 95);
    expect(values).toEqual(copy);
  });

  it('is NaN for no values', () => {
    expect(percentile([], 50)).toBeNaN();
  });

  it('refuses a p outside 0 to 100', () => {
    expect(() => percentile(values, 101)).toThrow(RangeError);
    expect(() => percentile(values, -1)).toThrow(RangeError);
    expect(() => percentile(values, Number.NaN)).toThrow(RangeError);
  });
});
