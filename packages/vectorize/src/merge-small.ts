import type { AreaQueue } from './area-queue.ts';
import type { Clustering } from './clusters.ts';
import { type HierarchySettings, keepsLayer } from './hierarchy.ts';
import type { MergeState } from './merge-state.ts';
import * as R from './merge-state.ts';
import { int32Scratch } from './scratch.ts';

/**
 * Phase one of the hierarchy: clusters of at most `maxArea` pixels, from the smallest up, with
 * their neighbours read from the pixel grid around their own pixels. Noisy photos start with about
 * one cluster per pixel and nearly all merging happens at these sizes: reading the pixels around a
 * few pixels is cheaper than building and chasing adjacency lists for every cluster (phase two, for
 * the few larger clusters left). Perimeter and neighbours come out exactly as adjacency lists
 * would give them.
 *
 * Each pixel carries the cluster it currently belongs to (relabelled when its cluster merges, at
 * most `maxArea` pixels per merge) beside the link to the next pixel of that cluster, so a visit
 * reads no union-find chains: the hierarchy is bound by memory latency, and on a photo of 100k
 * clusters every chased link was a likely cache miss. Returns that per-pixel pair array
 * ([2p] = current cluster of pixel p).
 */
export function mergeSmallClusters(
  clustering: Clustering,
  state: MergeState,
  settings: HierarchySettings,
  queue: AreaQueue,
  maxArea: number,
): Int32Array {
  const { width: w, height: h, labels } = clustering;
  const { f, i } = state;
  const I = 2 * R.RECORD;
  const FIRST = R.FIRST;
  // Per pixel, side by side (one cache line for both): [2p] the cluster it belongs to now,
  // relabelled when its cluster merges; [2p + 1] the next pixel of that cluster, in a circle, so
  // two clusters' lists join by swapping two links at pixels the visit has just read.
  const pixels = int32Scratch('merge pixels', 2 * w * h);
  const area = clustering.area;
  for (let p = w * h - 1; p >= 0; p--) {
    const c = labels[p]!;
    pixels[2 * p] = c;
    // Clusters too large for this phase are never visited here, so their circles are never read.
    if (c < 0 || area[c]! > maxArea) continue;
    const s = I * c;
    const head = i[s + FIRST]!;
    if (head < 0) {
      // The cluster's last pixel in raster order starts its circle.
      pixels[2 * p + 1] = p;
      i[s + FIRST] = p;
    } else {
      // Later (earlier in raster order) pixels go in right after it.
      pixels[2 * p + 1] = pixels[2 * head + 1]!;
      pixels[2 * head + 1] = p;
    }
  }

  // Area each cluster was last queued with (0 once merged away): tells stale queue entries apart
  // from a dense array instead of the scattered records.
  const queuedArea = int32Scratch('merge queued areas', clustering.count).fill(0);
  for (let c = 0; c < clustering.count; c++) if (clustering.area[c]! > 1) queuedArea[c] = clustering.area[c]!;

  // Single pixels first (nothing is smaller), in the order the queue would have returned them had
  // they been pushed in id order: the highest id first, which for them is backwards in raster
  // order. They are not queued: a merge never makes another cluster a single pixel.
  for (let p = w * h - 1; p >= 0; p--) {
    const id = labels[p]!;
    if (id >= 0 && area[id] === 1 && pixels[2 * p] === id && f[R.RECORD * id + R.AREA] === 1) {
      visitCluster(id, state, settings, queue, queuedArea, pixels, w, h);
    }
  }
  while (queue.size > 0 && queue.peekArea() <= maxArea) {
    queue.pop();
    const id = queue.id;
    // Stale entries: merged away since, or grown (and queued again with the new area).
    if (queuedArea[id] === queue.area) visitCluster(id, state, settings, queue, queuedArea, pixels, w, h);
  }
  return pixels;
}

/**
 * Merges cluster `id` into the neighbour of the nearest mean colour, reading its neighbours from
 * the pixels around its own. A module-level function, not a closure: a closure made per call is a
 * new call target for each image, and V8 threw the optimised caller away each time.
 */
function visitCluster(
  id: number,
  state: MergeState,
  settings: HierarchySettings,
  queue: AreaQueue,
  queuedArea: Int32Array,
  pixels: Int32Array,
  w: number,
  h: number,
): void {
  const { f, i } = state;
  // Local copies of the record layout: V8 (Node 20) reloads and re-checks module-level constants
  // on every use in optimised code.
  const RECORD = 8;
  const I = 16;
  const SUM = 0;
  const AREA = 4;
  const COLOR_AREA = 5;
  const FIRST = 14;
  const record = RECORD * id;
  // Mean colours as sum × (1 / colour area), the way they were always computed.
  const inverse = 1 / f[record + COLOR_AREA]!;
  const r = f[record + SUM]! * inverse;
  const g = f[record + SUM + 1]! * inverse;
  const b = f[record + SUM + 2]! * inverse;
  const a = f[record + SUM + 3]! * inverse;
  // Perimeter: edges to other clusters and to keyed-out pixels, not to the image frame.
  let perimeter = 0;
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  let bestArea = 0;
  // A pixel of the best neighbour next to one of ours: where the two pixel circles get joined.
  let bestPixel = -1;
  const firstPixel = i[I * id + FIRST]!;
  let p = firstPixel;
  do {
    const y = (p / w) | 0;
    const x = p - y * w;
    for (let k = 0; k < 4; k++) {
      let q: number;
      if (k === 0) q = y > 0 ? p - w : -1;
      else if (k === 1) q = x > 0 ? p - 1 : -1;
      else if (k === 2) q = x + 1 < w ? p + 1 : -1;
      else q = y + 1 < h ? p + w : -1;
      if (q < 0) continue;
      const other = pixels[2 * q]!;
      if (other === id) continue;
      perimeter++;
      // Keyed out, or the best so far again. Other repeats are weighed again (no stamp written to
      // mark them seen): the choice comes out the same, and records stay unwritten, so clean.
      if (other < 0 || other === best) continue;
      const o = RECORD * other;
      const otherInverse = 1 / f[o + COLOR_AREA]!;
      const distance =
        Math.abs(f[o + SUM]! * otherInverse - r) +
        Math.abs(f[o + SUM + 1]! * otherInverse - g) +
        Math.abs(f[o + SUM + 2]! * otherInverse - b) +
        Math.abs(f[o + SUM + 3]! * otherInverse - a);
      // Ties: the larger neighbour, then the lower id (independent of the order of visiting).
      const otherArea = f[o + AREA]!;
      if (
        distance < bestDistance ||
        (distance === bestDistance && (otherArea > bestArea || (otherArea === bestArea && other < best)))
      ) {
        bestDistance = distance;
        best = other;
        bestArea = otherArea;
        bestPixel = q;
      }
    }
    p = pixels[2 * p + 1]!;
  } while (p !== firstPixel);
  if (best < 0) {
    state.keepAlone(id);
    return;
  }
  state.merge(id, best, keepsLayer(f[record + AREA]!, perimeter, bestDistance, settings));
  queuedArea[id] = 0;
  p = firstPixel;
  do {
    pixels[2 * p] = best;
    p = pixels[2 * p + 1]!;
  } while (p !== firstPixel);
  const link = pixels[2 * bestPixel + 1]!;
  pixels[2 * bestPixel + 1] = pixels[2 * firstPixel + 1]!;
  pixels[2 * firstPixel + 1] = link;
  const area = f[RECORD * best + AREA]!;
  queuedArea[best] = area;
  queue.push(area, best);
}
