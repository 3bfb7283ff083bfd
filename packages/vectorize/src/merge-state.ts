import type { Clustering } from './clusters.ts';

/**
 * What the hierarchy keeps per cluster, in two records of one cache line each. Clusters are visited
 * in area order, all over the image, so each visit reads a few clusters at random: the `hot` record
 * holds everything looking at a neighbour reads (one cache line, one page) where a dozen parallel
 * arrays cost a dozen, and what only merging reads sits apart in `cold`, so the hot records of a
 * 100k-cluster photo take half the memory.
 */
export const RECORD = 8; // doubles per record; the int32 view of `hot` sees 2 × RECORD slots
// Hot, Float64 fields (index in doubles):
export const MEAN = 0; // 4: RGBA mean of the pixels whose colour the cluster carries
export const AREA = 4; // pixels in the cluster's shape
// Hot, Int32 fields (index in int32 slots; doubles 5–7):
export const STAMP = 10; // scratch: the cluster whose neighbours were being listed when this was last seen
export const PARENT = 11; // union-find link towards the cluster it merged into; itself for a root
export const FIRST = 12; // first pixel of its pixel list (phase one)
export const LAST = 13; // last pixel of its pixel list
export const MERGED_INTO = 14; // cluster it merged into, -1 while a root
// Cold, Float64 fields:
export const SUM = 0; // 4: RGBA sums of the pixels whose colour the cluster carries
export const COLOR_AREA = 4; // pixels in its colour (a kept layer adds its shape, not its colour)
const I = 2 * RECORD;

/** Merge state of both phases of the hierarchy, and the results. */
export class MergeState {
  /** Hot records (Float64 view). */
  readonly f: Float64Array;
  /** Hot records (Int32 view of the same memory). */
  readonly i: Int32Array;
  readonly cold: Float64Array;
  /** Clusters kept as layers, in the order they were decided. */
  readonly layers: number[] = [];
  /** Every cluster in the order it was decided (merged, or left alone): children before parents. */
  readonly order: Int32Array;
  decided = 0;

  constructor(clustering: Clustering) {
    const { count } = clustering;
    this.f = new Float64Array(RECORD * count);
    this.i = new Int32Array(this.f.buffer);
    this.cold = new Float64Array(RECORD * count);
    this.order = new Int32Array(count);
    const { f, i, cold } = this;
    for (let c = 0; c < count; c++) {
      const o = RECORD * c;
      const area = clustering.area[c]!;
      cold[o + SUM] = clustering.sums[4 * c]!;
      cold[o + SUM + 1] = clustering.sums[4 * c + 1]!;
      cold[o + SUM + 2] = clustering.sums[4 * c + 2]!;
      cold[o + SUM + 3] = clustering.sums[4 * c + 3]!;
      cold[o + COLOR_AREA] = area;
      f[o + AREA] = area;
      this.updateMean(c);
      const s = I * c;
      i[s + PARENT] = c;
      i[s + STAMP] = -1;
      i[s + FIRST] = -1;
      i[s + MERGED_INTO] = -1;
    }
  }

  area(c: number): number {
    return this.f[RECORD * c + AREA]!;
  }

  isRoot(c: number): boolean {
    return this.i[I * c + PARENT] === c;
  }

  updateMean(c: number): void {
    const { f, cold } = this;
    const o = RECORD * c;
    const inv = 1 / cold[o + COLOR_AREA]!;
    f[o + MEAN] = cold[o + SUM]! * inv;
    f[o + MEAN + 1] = cold[o + SUM + 1]! * inv;
    f[o + MEAN + 2] = cold[o + SUM + 2]! * inv;
    f[o + MEAN + 3] = cold[o + SUM + 3]! * inv;
  }

  /** The root of c's merge tree, halving the path on the way. */
  find(c: number): number {
    const i = this.i;
    for (;;) {
      const up = i[I * c + PARENT]!;
      if (up === c) return c;
      const upper = i[I * up + PARENT]!;
      i[I * c + PARENT] = upper;
      c = upper;
    }
  }

  /** Merges `id` into `best`: its shape always, its colour unless it is kept as a layer. */
  merge(id: number, best: number, isLayer: boolean): void {
    const { f, cold } = this;
    const o = RECORD * id;
    const t = RECORD * best;
    this.order[this.decided++] = id;
    if (isLayer) this.layers.push(id);
    else {
      cold[t + SUM]! += cold[o + SUM]!;
      cold[t + SUM + 1]! += cold[o + SUM + 1]!;
      cold[t + SUM + 2]! += cold[o + SUM + 2]!;
      cold[t + SUM + 3]! += cold[o + SUM + 3]!;
      cold[t + COLOR_AREA]! += cold[o + COLOR_AREA]!;
      this.updateMean(best);
    }
    f[t + AREA]! += f[o + AREA]!;
    this.i[I * id + PARENT] = best;
    this.i[I * id + MERGED_INTO] = best;
  }

  /** A cluster with no neighbour left: the background of its connected part. */
  keepAlone(id: number): void {
    this.order[this.decided++] = id;
    this.layers.push(id);
  }

  /** Merge targets per cluster (-1 for roots). */
  mergedInto(): Int32Array {
    const count = this.f.length / RECORD;
    const out = new Int32Array(count);
    for (let c = 0; c < count; c++) out[c] = this.i[I * c + MERGED_INTO]!;
    return out;
  }

  /**
   * Layer fill per cluster (RGBA): its mean when it was decided, which is its final mean, since a
   * cluster's mean only changes while others merge into it.
   */
  colors(): Float64Array {
    const count = this.f.length / RECORD;
    const out = new Float64Array(4 * count);
    for (let c = 0; c < count; c++) for (let k = 0; k < 4; k++) out[4 * c + k] = this.f[RECORD * c + MEAN + k]!;
    return out;
  }
}
