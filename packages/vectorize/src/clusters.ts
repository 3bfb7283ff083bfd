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

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

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
  // quantised alpha is not 0). Only equality of keys matters: on a little-endian machine each
  // pixel is read as one 32-bit word with the dropped bits masked off. Keys are made a row at a
  // time, just before the row is joined, so they are still in cache when read.
  const keys = int32Scratch('cluster keys', n);
  const byteMask = (0xff << shift) & 0xff;
  const words = LITTLE_ENDIAN && data.byteOffset % 4 === 0 ? new Int32Array(data.buffer, data.byteOffset, n) : null;
  // Every link points to a smaller index (a left or upper pixel, or the smaller of two roots), so
  // one forward pass at the end resolves all roots. `roots` counts them as links are made.
  const parent = int32Scratch('cluster parents', n);
  let roots = 0;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    if (words) quantiseWords(words, keys, row, row + w, byteMask);
    else quantiseBytes(data, keys, row, row + w, byteMask);
    for (let x = 0; x < w; x++) {
      const i = row + x;
      parent[i] = i;
      const key = keys[i]!;
      if (key === 0) continue;
      roots++;
      const joinsLeft = x > 0 && keys[i - 1] === key;
      if (joinsLeft) {
        parent[i] = parent[i - 1]!;
        roots--;
      }
      if (y === 0 || keys[i - w] !== key) continue;
      // Left, upper-left and upper pixels of one colour are already one cluster: nothing to join.
      if (joinsLeft && keys[i - w - 1] === key) continue;
      const above = find(parent, i - w);
      const self = find(parent, i);
      if (above < self) parent[self] = above;
      else if (self < above) parent[above] = self;
      else continue;
      roots--;
    }
  }
  // Labels in raster order of the clusters' first pixels, with each cluster's area and sums
  // gathered in the same pass.
  const count = roots;
  const labels = int32Scratch('cluster labels', n);
  const area = int32Scratch('cluster areas', count).fill(0);
  const sums = float64Scratch('cluster sums', 4 * count).fill(0);
  let next = 0;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    if (keys[i] === 0) {
      labels[i] = -1;
      continue;
    }
    const up = parent[i]!;
    let label: number;
    if (up === i) label = next++;
    else {
      // The parent is smaller, so already resolved to its root: reuse its label.
      const root = parent[up]!;
      parent[i] = root;
      label = labels[root]!;
    }
    labels[i] = label;
    area[label]! += 1;
    const s = 4 * label;
    sums[s]! += data[o]!;
    sums[s + 1]! += data[o + 1]!;
    sums[s + 2]! += data[o + 2]!;
    sums[s + 3]! += data[o + 3]!;
  }
  return { width: w, height: h, labels, count, area, sums };
}

/** Keys of pixels [from, to) from 32-bit words (little-endian: alpha is the top byte). */
function quantiseWords(words: Int32Array, keys: Int32Array, from: number, to: number, byteMask: number): void {
  const mask = byteMask | (byteMask << 8) | (byteMask << 16) | (byteMask << 24);
  const keyedBelow = (KEY_ALPHA << 24) >>> 0;
  for (let i = from; i < to; i++) {
    const word = words[i]!;
    keys[i] = word >>> 0 < keyedBelow ? 0 : word & mask;
  }
}

/** Keys of pixels [from, to) from RGBA bytes. */
function quantiseBytes(data: ArrayLike<number>, keys: Int32Array, from: number, to: number, byteMask: number): void {
  for (let i = from, o = 4 * from; i < to; i++, o += 4) {
    const a = data[o + 3]!;
    keys[i] =
      a < KEY_ALPHA
        ? 0
        : ((data[o]! & byteMask) << 24) |
          ((data[o + 1]! & byteMask) << 16) |
          ((data[o + 2]! & byteMask) << 8) |
          (a & byteMask);
  }
}
