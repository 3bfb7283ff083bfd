import type { Clustering } from './clusters.ts';

/**
 * Everything the hierarchy keeps per cluster, in one 128-byte record: clusters are visited in area
 * order, all over the image, so each visit reads a few records at random; one record per cluster
 * costs one cache line and one page (one TLB entry) where a dozen parallel arrays cost a dozen,
 * which decided the speed on photos of 100k clusters (on a VM a TLB miss is a nested page walk).
 */
export const RECORD = 16; // doubles per record; the int32 view sees 2 × RECORD slots
// First cache line: what looking at a neighbour reads. Float64 fields (index in doubles):
export const MEAN = 0; // 4: RGBA mean of the pixels whose colour the cluster carries
export const AREA = 4; // pixels in the cluster's shape
// Int32 fields (index in int32 slots; doubles 5–7):
export const STAMP = 10; // scratch: the cluster whose neighbours were being listed when this was last seen
export const PARENT = 11; // union-find link towards the cluster it merged into; itself for a root
export const FIRST = 12; // first pixel of its pixel list (phase one)
export const LAST = 13; // last pixel of its pixel list
export const MERGED_INTO = 14; // cluster it merged into, -1 while a root
// Second cache line: what merging reads. Float64 fields:
export const SUM = 8; // 4: RGBA sums of the pixels whose colour the cluster carries
export const COLOR_AREA = 12; // pixels in its colour (a kept layer adds its shape, not its colour)
const I = 2 * RECORD;

/** Merge state of both phases of the hierarchy, and the results. */
export class MergeState {
  readonly f: Float64Array;
  readonly i: Int32Array;
  /** Clusters kept as layers, in the order they were decided. */
  readonly layers: number[] = [];

  constructor(clustering: Clustering) {
    const { count } = clustering;
    this.f = new Float64Array(RECORD * count);
    this.i = new Int32Array(this.f.buffer);
    const { f, i } = this;
    for (let c = 0; c < count; c++) {
      const o = RECORD * c;
      const area = clustering.area[c]!;
      f[o + SUM] = clustering.sumR[c]!;
      f[o + SUM + 1] = clustering.sumG[c]!;
      f[o + SUM + 2] = clustering.sumB[c]!;
      f[o + SUM + 3] = clustering.sumA[c]!;
      f[o + AREA] = area;
      f[o + COLOR_AREA] = area;
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
    const f = this.f;
    const o = RECORD * c;
    const inv = 1 / f[o + COLOR_AREA]!;
    f[o + MEAN] = f[o + SUM]! * inv;
    f[o + MEAN + 1] = f[o + SUM + 1]! * inv;
    f[o + MEAN + 2] = f[o + SUM + 2]! * inv;
    f[o + MEAN + 3] = f[o + SUM + 3]! * inv;
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
    const f = this.f;
    const o = RECORD * id;
    const t = RECORD * best;
    if (isLayer) this.layers.push(id);
    else {
      f[t + SUM]! += f[o + SUM]!;
      f[t + SUM + 1]! += f[o + SUM + 1]!;
      f[t + SUM + 2]! += f[o + SUM + 2]!;
      f[t + SUM + 3]! += f[o + SUM + 3]!;
      f[t + COLOR_AREA]! += f[o + COLOR_AREA]!;
      this.updateMean(best);
    }
    f[t + AREA]! += f[o + AREA]!;
    this.i[I * id + PARENT] = best;
    this.i[I * id + MERGED_INTO] = best;
  }

  /** A cluster with no neighbour left: the background of its connected part. */
  keepAlone(id: number): void {
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
