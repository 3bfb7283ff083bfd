import { buildAdjacency } from './adjacency.ts';
import type { AreaQueue } from './area-queue.ts';
import type { Clustering } from './clusters.ts';
import { type HierarchySettings, keepsLayer } from './hierarchy.ts';
import type { MergeState } from './merge-state.ts';
import * as R from './merge-state.ts';
import { float64Scratch, int32Scratch } from './scratch.ts';

// Fields of a cluster's record in `hot` (eight doubles: one cache line).
const MEAN = 0;
const AREA = 4;
const PERIMETER = 5;
const COLOR_AREA = 6;
const HOT = 8;

/**
 * Phase two of the hierarchy: the clusters left after single pixels merged, from the smallest up,
 * over adjacency lists built once now. The work is dominated by memory latency (clusters are read
 * in area order, all over the image), so the survivors are renumbered densely and what a neighbour
 * visit reads lies together: mean colour, area and perimeter in one record, union-find link and
 * compaction stamp in another. The queue and the results keep the original ids.
 */
export function mergeByArea(
  clustering: Clustering,
  state: MergeState,
  settings: HierarchySettings,
  queue: AreaQueue,
  /** [2p] = the cluster pixel p belongs to after phase one (see merge-small.ts). */
  owner: Int32Array,
): void {
  const { width: w, height: h, count } = clustering;
  const compactOf = int32Scratch('phase two ids', count);
  let m = 0;
  for (let c = 0; c < count; c++) compactOf[c] = state.isRoot(c) ? m++ : -1;
  const originalOf = int32Scratch('phase two originals', m);
  const hot = float64Scratch('phase two records', HOT * m);
  const sums = float64Scratch('phase two sums', 4 * m);
  // [2k] union-find link (compact ids), [2k + 1] compaction stamp.
  const link = int32Scratch('phase two links', 2 * m);
  const { f } = state;
  for (let c = 0; c < count; c++) {
    const k = compactOf[c]!;
    if (k < 0) continue;
    originalOf[k] = c;
    const o = R.RECORD * c;
    const inverse = 1 / f[o + R.COLOR_AREA]!;
    for (let j = 0; j < 4; j++) {
      hot[HOT * k + MEAN + j] = f[o + R.SUM + j]! * inverse;
      sums[4 * k + j] = f[o + R.SUM + j]!;
    }
    hot[HOT * k + AREA] = f[o + R.AREA]!;
    hot[HOT * k + COLOR_AREA] = f[o + R.COLOR_AREA]!;
    link[2 * k] = k;
    link[2 * k + 1] = -1;
  }
  const { adjacency, perimeter } = buildAdjacency(w, h, owner, compactOf, m);
  for (let k = 0; k < m; k++) hot[HOT * k + PERIMETER] = perimeter[k]!;
  const { head, tail, nodes } = adjacency;
  // Node of each neighbour in the list being compacted (valid where its stamp is the current id).
  const slot = int32Scratch('phase two slots', m);
  const { layers, order } = state;
  const mergedInto = state.i;

  while (queue.size > 0) {
    queue.pop();
    const id = compactOf[queue.id]!;
    const record = HOT * id;
    // Stale entries: merged away since, or grown (and queued again with the new area).
    if (id < 0 || link[2 * id] !== id || queue.area !== hot[record + AREA]) continue;

    // Compact the list: every entry names a current cluster once, weights summed, none pointing
    // back to the cluster itself; meanwhile find the neighbour of the nearest mean colour (ties:
    // the larger, then the lower id).
    const r = hot[record + MEAN]!;
    const g = hot[record + MEAN + 1]!;
    const b = hot[record + MEAN + 2]!;
    const a = hot[record + MEAN + 3]!;
    let best = -1;
    let bestDistance = Number.POSITIVE_INFINITY;
    let node = head[id]!;
    let last = -1;
    while (node >= 0) {
      const base = 3 * node;
      const following = nodes[base]!;
      let other = nodes[base + 1]!;
      while (link[2 * other] !== other) {
        const up = link[2 * link[2 * other]!]!;
        link[2 * other] = up;
        other = up;
      }
      if (other !== id) {
        if (link[2 * other + 1] === id) nodes[3 * slot[other]! + 2]! += nodes[base + 2]!;
        else {
          link[2 * other + 1] = id;
          slot[other] = node;
          nodes[base + 1] = other;
          if (last >= 0) nodes[3 * last] = node;
          else head[id] = node;
          last = node;
          const o = HOT * other;
          const distance =
            Math.abs(hot[o + MEAN]! - r) +
            Math.abs(hot[o + MEAN + 1]! - g) +
            Math.abs(hot[o + MEAN + 2]! - b) +
            Math.abs(hot[o + MEAN + 3]! - a);
          if (
            distance < bestDistance ||
            (distance === bestDistance &&
              (hot[o + AREA]! > hot[HOT * best + AREA]! || (hot[o + AREA] === hot[HOT * best + AREA] && other < best)))
          ) {
            bestDistance = distance;
            best = other;
          }
        }
      }
      node = following;
    }
    if (last >= 0) nodes[3 * last] = -1;
    else head[id] = -1;
    tail[id] = last;

    const original = originalOf[id]!;
    order[state.decided++] = original;
    if (best < 0) {
      layers.push(original); // Nothing left around it: the background of its connected part.
      continue;
    }
    const into = HOT * best;
    const isLayer = keepsLayer(hot[record + AREA]!, hot[record + PERIMETER]!, bestDistance, settings);
    if (isLayer) layers.push(original);
    else {
      // An absorbed speckle mixes its colour into the neighbour; a layer only its shape.
      for (let j = 0; j < 4; j++) sums[4 * best + j]! += sums[4 * id + j]!;
      hot[into + COLOR_AREA]! += hot[record + COLOR_AREA]!;
      const inv = 1 / hot[into + COLOR_AREA]!;
      for (let j = 0; j < 4; j++) hot[into + MEAN + j] = sums[4 * best + j]! * inv;
    }
    // The edges the two shared become inside edges of the merged cluster.
    hot[into + PERIMETER] = hot[into + PERIMETER]! + hot[record + PERIMETER]! - 2 * nodes[3 * slot[best]! + 2]!;
    hot[into + AREA]! += hot[record + AREA]!;
    link[2 * id] = best;
    mergedInto[2 * R.RECORD * original + R.PARENT] = originalOf[best]!;
    adjacency.splice(best, id);
    queue.push(hot[into + AREA]!, originalOf[best]!);
  }
  // Each cluster's final sums give its layer fill (see MergeState.colors).
  for (let k = 0; k < m; k++) {
    const o = R.RECORD * originalOf[k]!;
    for (let j = 0; j < 4; j++) f[o + R.SUM + j] = sums[4 * k + j]!;
    f[o + R.COLOR_AREA] = hot[HOT * k + COLOR_AREA]!;
  }
}
