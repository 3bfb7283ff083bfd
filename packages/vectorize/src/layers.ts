import type { Clustering } from './clusters.ts';
import type { Hierarchy } from './hierarchy.ts';
import type { RegionIndex } from './outline.ts';

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
  const position = new Int32Array(n);
  const candidateStart = new Int32Array(positions + 1);
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
  const fill = candidateStart.slice(0, positions);
  const candidates = new Int32Array(candidateStart[positions]!);
  for (let i = 0; i < n; i++) {
    const label = labels[i]!;
    if (label >= 0 && (i < w || labels[i - w] !== label)) candidates[fill[position[i]!]!++] = i;
  }
  return { width: w, height: h, position, candidates, candidateStart, walkedBy: new Int32Array(n).fill(-1) };
}

/** Depth-first numbering of the merge forest where every subtree is one interval [enter, exit). */
function eulerTour(mergedInto: Int32Array): { enter: Int32Array; exit: Int32Array } {
  const count = mergedInto.length;
  const childStart = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) if (mergedInto[i]! >= 0) childStart[mergedInto[i]! + 1]! += 1;
  for (let i = 0; i < count; i++) childStart[i + 1]! += childStart[i]!;
  const children = new Int32Array(Math.max(1, childStart[count]!));
  const fill = childStart.slice(0, count);
  for (let i = 0; i < count; i++) if (mergedInto[i]! >= 0) children[fill[mergedInto[i]!]!++] = i;
  const enter = new Int32Array(count);
  const exit = new Int32Array(count);
  const stack = new Int32Array(count * 2);
  let clock = 0;
  for (let root = 0; root < count; root++) {
    if (mergedInto[root]! >= 0) continue;
    let top = 0;
    stack[top++] = root;
    while (top > 0) {
      const entry = stack[--top]!;
      if (entry < 0) {
        exit[-entry - 1] = clock;
        continue;
      }
      enter[entry] = clock++;
      stack[top++] = -entry - 1;
      for (let c = childStart[entry]!; c < childStart[entry + 1]!; c++) stack[top++] = children[c]!;
    }
  }
  return { enter, exit };
}

/**
 * Stacked: each layer is the whole subtree of its cluster (itself plus everything merged into it),
 * so a parent lies solid under its children. Painted parents first: reverse of decision order.
 */
export function stackedLayers(clustering: Clustering, hierarchy: Hierarchy): LayerSet {
  const { enter, exit } = eulerTour(hierarchy.mergedInto);
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
