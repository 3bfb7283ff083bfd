import type { Clustering } from './clusters.ts';
import type { Hierarchy } from './hierarchy.ts';
import type { RegionIndex } from './outline.ts';
import { int32Scratch } from './scratch.ts';

/** A layer is the region of pixels whose position lies in [lo, hi) in its RegionIndex. */
export interface Layer {
  cluster: number;
  lo: number;
  hi: number;
}

export interface LayerSet {
  index: RegionIndex;
  /** In paint order: parents before children. */
  layers: Layer[];
}

/**
 * Pixels get a position from their cluster; loop start candidates (pixels whose upper neighbour is
 * another cluster) are sorted by position with a counting sort, so a range of positions maps to a
 * contiguous run of candidates.
 */
function indexRegions(clustering: Clustering, positionOf: Int32Array, positions: number): RegionIndex {
  const { width: w, height: h, labels } = clustering;
  const n = w * h;
  const position = int32Scratch('region positions', n);
  const candidateStart = int32Scratch('region candidate starts', positions + 1).fill(0);
  for (let i = 0; i < n; i++) {
    const label = labels[i]!;
    if (label < 0) {
      position[i] = -1;
      continue;
    }
    const p = positionOf[label]!;
    position[i] = p;
    if (i < w || labels[i - w] !== label) candidateStart[p + 1]! += 1;
  }
  for (let p = 0; p < positions; p++) candidateStart[p + 1]! += candidateStart[p]!;
  const fill = int32Scratch('region fill', positions);
  fill.set(candidateStart.subarray(0, positions));
  const candidates = int32Scratch('region candidates', candidateStart[positions]!);
  for (let i = 0; i < n; i++) {
    const label = labels[i]!;
    if (label >= 0 && (i < w || labels[i - w] !== label)) candidates[fill[position[i]!]!++] = i;
  }
  return {
    width: w,
    height: h,
    position,
    candidates,
    candidateStart,
    walkedBy: int32Scratch('region walks', n).fill(-1),
  };
}

/**
 * Depth-first numbering of the merge forest where every subtree is one interval [enter, exit):
 * roots by increasing id, a node before its children, children by decreasing id. Computed from
 * subtree sizes in four linear passes (no child lists, no stack): `order` lists every cluster
 * before the cluster it merged into.
 */
function eulerTour(mergedInto: Int32Array, order: Int32Array): { enter: Int32Array; exit: Int32Array } {
  const count = mergedInto.length;
  // Subtree sizes (the last pass turns them into exits).
  const size = int32Scratch('tour sizes', count).fill(1);
  for (let k = 0; k < count; k++) {
    const c = order[k]!;
    const p = mergedInto[c]!;
    if (p >= 0) size[p]! += size[c]!;
  }
  // Offset of each child within its parent's interval (the parent itself comes first).
  const enter = int32Scratch('tour enters', count);
  const next = int32Scratch('tour offsets', count).fill(1);
  for (let c = count - 1; c >= 0; c--) {
    const p = mergedInto[c]!;
    if (p < 0) continue;
    enter[c] = next[p]!;
    next[p]! += size[c]!;
  }
  let clock = 0;
  for (let c = 0; c < count; c++) {
    if (mergedInto[c]! >= 0) continue;
    enter[c] = clock;
    clock += size[c]!;
  }
  // Parents before children: offsets become absolute.
  for (let k = count - 1; k >= 0; k--) {
    const c = order[k]!;
    const p = mergedInto[c]!;
    if (p >= 0) enter[c]! += enter[p]!;
  }
  const exit = size;
  for (let c = 0; c < count; c++) exit[c]! += enter[c]!;
  return { enter, exit };
}

/**
 * Stacked: each layer is the whole subtree of its cluster (itself plus everything merged into it),
 * so a parent lies solid under its children. Painted parents first: reverse of decision order.
 */
export function stackedLayers(clustering: Clustering, hierarchy: Hierarchy): LayerSet {
  const { enter, exit } = eulerTour(hierarchy.mergedInto, hierarchy.order);
  const index = indexRegions(clustering, enter, clustering.count);
  const layers: Layer[] = [];
  for (let k = hierarchy.layers.length - 1; k >= 0; k--) {
    const cluster = hierarchy.layers[k]!;
    layers.push({ cluster, lo: enter[cluster]!, hi: exit[cluster]! });
  }
  return { index, layers };
}

/** Cutout: each layer keeps only the pixels no layer above it covers; shapes do not overlap. */
export function cutoutLayers(clustering: Clustering, hierarchy: Hierarchy): LayerSet {
  const { count } = clustering;
  const { mergedInto } = hierarchy;
  const isLayer = new Uint8Array(count);
  for (const id of hierarchy.layers) isLayer[id] = 1;
  // Owner = nearest layer at or above the cluster in the merge forest, found by following merge
  // links with memoisation.
  const owner = new Int32Array(count).fill(-1);
  const path: number[] = [];
  for (let i = 0; i < count; i++) {
    let c = i;
    while (owner[c] === -1 && !isLayer[c] && mergedInto[c]! >= 0) {
      path.push(c);
      c = mergedInto[c]!;
    }
    const resolved = owner[c] !== -1 ? owner[c]! : c;
    owner[c] = resolved;
    for (const p of path) owner[p] = resolved;
    path.length = 0;
  }
  const index = indexRegions(clustering, owner, count);
  const layers: Layer[] = [];
  for (let k = hierarchy.layers.length - 1; k >= 0; k--) {
    const cluster = hierarchy.layers[k]!;
    layers.push({ cluster, lo: cluster, hi: cluster + 1 });
  }
  return { index, layers };
}
