import { describe, expect, it } from 'vitest';
import { vectorize } from '../src/index.ts';
import { nearestFirstOrder } from '../src/run-order.ts';
import { makeImage } from './helpers.ts';

/** Runs as first and last pixel, four numbers each. */
function runs(...list: [number, number, number, number][]): Int32Array {
  return Int32Array.from(list.flat());
}

/** A deterministic scatter of single pixels and short rows, `count` runs in raster order. */
function scatter(count: number, width: number, height: number): Int32Array {
  const list: [number, number, number, number][] = [];
  let seed = 11;
  for (let i = 0; i < count; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const x = seed % (width - 4);
    const y = (seed >>> 12) % height;
    list.push([x, y, x + (i % 3), y]);
  }
  list.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  return runs(...list);
}

describe('order of the 1-px runs', () => {
  it('goes to the nearest run next, not the next in raster order', () => {
    // Raster order: (0,0), (100,0), (1,1), (101,1): two long moves back and forth.
    const order = nearestFirstOrder(runs([0, 0, 0, 0], [100, 0, 100, 0], [1, 1, 1, 1], [101, 1, 101, 1]), 4);
    expect([...order]).toEqual([0, 2, 1, 3]);
    // From the end of a row, not its start: (0,0)-(9,0) ends near (10,1).
    const fromEnd = nearestFirstOrder(runs([0, 0, 9, 0], [0, 3, 0, 3], [10, 1, 10, 1]), 3);
    expect([...fromEnd]).toEqual([0, 2, 1]);
  });

  it('writes every run once, with few runs and with many (cell search)', () => {
    for (const count of [0, 1, 2, 16, 17, 300, 5000]) {
      const list = scatter(count, 640, 200);
      const order = [...nearestFirstOrder(list, count)];
      expect(order.length).toBe(count);
      expect(new Set(order).size).toBe(count);
      if (count > 0) expect(order[0]).toBe(0);
      expect(order.every((i) => i >= 0 && i < count)).toBe(true);
    }
  });

  it('makes the moves between runs shorter than raster order on a scatter', () => {
    const count = 3000;
    const list = scatter(count, 640, 200);
    const total = (order: number[]): number =>
      order.slice(1).reduce((sum, i, k) => {
        const from = order[k]!;
        return sum + Math.abs(list[4 * i]! - list[4 * from + 2]!) + Math.abs(list[4 * i + 1]! - list[4 * from + 3]!);
      }, 0);
    const raster = Array.from({ length: count }, (_, i) => i);
    expect(total([...nearestFirstOrder(list, count)])).toBeLessThan(total(raster) * 0.5);
  });

  it('orders the specks of a snapped picture by where the last one ended', () => {
    // Two columns of single grey pixels far apart, every other row: raster order would zigzag
    // across ("zm105 0zm-105 2z..."), nearest first goes down one column, then the other.
    const image = makeImage(120, 40, (x, y) => {
      if ((x === 5 || x === 110) && y % 2 === 0 && y < 20) return [128, 128, 128, 255];
      return [255, 255, 255, 255];
    });
    const path = vectorize(image, { engine: 'pixel-exact' }).svg.match(/<path d="([^"]*)"[^>]*stroke="#808080"/)?.[1];
    expect(path).toBe(
      'M5.5.5zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2zm105-18zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2zm0 2z',
    );
  });
});
