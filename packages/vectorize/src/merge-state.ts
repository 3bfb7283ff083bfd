import type { Clustering } from './clusters.ts';
import { float64Scratch, int32Scratch } from './scratch.ts';

/**
 * What the hierarchy keeps per cluster, in one record of one cache line. Clusters are visited in
 * area order, all over the image, so each visit reads a few clusters at random: one line (and one
 * page) per cluster, where parallel arrays cost one per field. The record holds colour sums, not
 * means: a mean is the sum times 1 / colour area, computed where it is needed (exactly as a stored
 * mean would have been), which leaves room for everything else in the line.
 */
export const RECORD = 8; // doubles per record; the Int32 view sees 2 × RECORD slots
// Float64 fields (index in doubles):
export const SUM = 0; // 4: RGBA sums of the pixels whose colour the cluster carries
export const AREA = 4; // pixels in the cluster's shape
export const COLOR_AREA = 5; // pixels in its colour (a kept layer adds its shape, not its colour)
// Int32 fields (index in int32 slots; doubles 6–7, slot 12 unused):
export const PARENT = 13; // the cluster it merged into; itself while a root
export const FIRST = 14; // one pixel of the cluster, where its circle of pixels starts (phase one)
const I = 2 * RECORD;

/** Merge state of both phases of the hierarchy, and the results. */
export class MergeState {
  /** Records (Float64 view). */
  readonly f: Float64Array;
  /** Records (Int32 view of the same memory). */
  readonly i: Int32Array;
  /** Clusters kept as layers, in the order they were decided. */
  readonly layers: number[] = [];
  /** Every cluster in the order it was decided (merged, or left alone): children before parents. */
  readonly order: Int32Array;
  decided = 0;

  constructor(clustering: Clustering) {
    const { count, sums } = clustering;
    this.f = float64Scratch('merge records', RECORD * count);
    this.i = new Int32Array(this.f.buffer, this.f.byteOffset, 2 * RECORD * count);
    this.order = int32Scratch('merge order', count);
    const { f, i } = this;
    for (let c = 0; c < count; c++) {
      const o = RECORD * c;
      const area = clustering.area[c]!;
      f[o + SUM] = sums[4 * c]!;
      f[o + SUM + 1] = sums[4 * c + 1]!;
      f[o + SUM + 2] = sums[4 * c + 2]!;
      f[o + SUM + 3] = sums[4 * c + 3]!;
      f[o + AREA] = area;
      f[o + COLOR_AREA] = area;
      const s = I * c;
      i[s + PARENT] = c;
      i[s + FIRST] = -1;
    }
  }

  isRoot(c: number): boolean {
    return this.i[I * c + PARENT] === c;
  }

  /** Merges `id` into `best`: its shape always, its colour unless it is kept as a layer. */
  merge(id: number, best: number, isLayer: boolean): void {
    const f = this.f;
    const o = RECORD * id;
    const t = RECORD * best;
    this.order[this.decided++] = id;
    if (isLayer) this.layers.push(id);
    else {
      f[t + SUM]! += f[o + SUM]!;
      f[t + SUM + 1]! += f[o + SUM + 1]!;
      f[t + SUM + 2]! += f[o + SUM + 2]!;
      f[t + SUM + 3]! += f[o + SUM + 3]!;
      f[t + COLOR_AREA]! += f[o + COLOR_AREA]!;
    }
    f[t + AREA]! += f[o + AREA]!;
    this.i[I * id + PARENT] = best;
  }

  /** A cluster with no neighbour left: the background of its connected part. */
  keepAlone(id: number): void {
    this.order[this.decided++] = id;
    this.layers.push(id);
  }

  /** Merge targets per cluster (-1 for roots). */
  mergedInto(): Int32Array {
    const count = this.order.length;
    const out = int32Scratch('merge targets', count);
    for (let c = 0; c < count; c++) {
      const parent = this.i[I * c + PARENT]!;
      out[c] = parent === c ? -1 : parent;
    }
    return out;
  }

  /**
   * Layer fill per cluster (RGBA): its mean when it was decided, which is its final mean, since a
   * cluster's sums only change while others merge into it.
   */
  colors(): Float64Array {
    const count = this.order.length;
    const out = float64Scratch('merge colours', 4 * count);
    const f = this.f;
    for (let c = 0; c < count; c++) {
      const o = RECORD * c;
      const inv = 1 / f[o + COLOR_AREA]!;
      for (let k = 0; k < 4; k++) out[4 * c + k] = f[o + SUM + k]! * inv;
    }
    return out;
  }
}
