import { float64Scratch, int32Scratch } from './scratch.ts';
import type { RgbaImage } from './types.ts';

/** 4-connected regions of pixels whose colours agree after dropping low bits, with running statistics. */
export interface Clustering {
  width: number;
  height: number;
  /** Cluster of each pixel; -1 for keyed-out (transparent) pixels. */
  labels: Int32Array;
  count: number;
  /** Pixels per cluster. */
  area: Int32Array;
  /** RGBA sums per cluster (4 entries each). */
  sums: Float64Array;
}

/** Pixels below this alpha count as background: they are never traced and stay transparent. */
export const KEY_ALPHA = 128;

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    const up = parent[parent[i]!]!;
    parent[i] = up;
    i = up;
  }
  return i;
}

/**
 * One raster pass with union-find: a pixel joins its left and upper neighbours when their quantised
 * colours are equal. Exact equality of the quantised values (no tolerance step) keeps gradients in
 * bands, which the hierarchy then merges by measured colour distance.
 */
export function clusterPixels(image: RgbaImage, colorPrecision: number): Clustering {
  const { width: w, height: h, data } = image;
  const n = w * h;
  const shift = 8 - Math.min(8, colorPrecision);
  // Quantised RGBA per pixel; 0 marks a keyed-out pixel (a kept pixel has alpha >= 128, so its
  // quantised alpha, the low byte, is at least 1).
  const keys = int32Scratch('cluster keys', n);
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const a = data[o + 3]!;
    if (a < KEY_ALPHA) {
      keys[i] = 0;
      continue;
    }
    keys[i] =
      ((data[o]! >> shift) << 24) | ((data[o + 1]! >> shift) << 16) | ((data[o + 2]! >> shift) << 8) | (a >> shift);
  }
  // Every link points to a smaller index (a left or upper pixel, or the smaller of two roots), so
  // one forward pass at the end resolves all roots.
  const parent = int32Scratch('cluster parents', n);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const i = row + x;
      parent[i] = i;
      const key = keys[i]!;
      if (key === 0) continue;
      const joinsLeft = x > 0 && keys[i - 1] === key;
      if (joinsLeft) parent[i] = parent[i - 1]!;
      if (y === 0 || keys[i - w] !== key) continue;
      // Left, upper-left and upper pixels of one colour are already one cluster: nothing to join.
      if (joinsLeft && keys[i - w - 1] === key) continue;
      const above = find(parent, i - w);
      const self = find(parent, i);
      if (above < self) parent[self] = above;
      else if (self < above) parent[above] = self;
    }
  }
  const labels = int32Scratch('cluster labels', n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (keys[i] === 0) {
      labels[i] = -1;
      continue;
    }
    const up = parent[i]!;
    if (up === i) labels[i] = count++;
    else {
      // The parent is smaller, so already resolved to its root: reuse its label.
      const root = parent[up]!;
      parent[i] = root;
      labels[i] = labels[root]!;
    }
  }
  const area = int32Scratch('cluster areas', count).fill(0);
  const sums = float64Scratch('cluster sums', 4 * count).fill(0);
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const label = labels[i]!;
    if (label < 0) continue;
    area[label]! += 1;
    const s = 4 * label;
    sums[s]! += data[o]!;
    sums[s + 1]! += data[o + 1]!;
    sums[s + 2]! += data[o + 2]!;
    sums[s + 3]! += data[o + 3]!;
  }
  return { width: w, height: h, labels, count, area, sums };
}
