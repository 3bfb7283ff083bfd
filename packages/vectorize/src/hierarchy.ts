import { AreaQueue } from './area-queue.ts';
import type { Clustering } from './clusters.ts';
import { mergeByArea } from './merge-by-area.ts';
import { mergeSmallClusters } from './merge-small.ts';
import { MergeState } from './merge-state.ts';

export interface HierarchySettings {
  /** Clusters of at most this many pixels are absorbed into a neighbour, never kept as layers. */
  speckleArea: number;
  /** A cluster becomes a layer only when its colour differs from its nearest neighbour by more than this. */
  layerDifference: number;
}

/** The merge forest: every cluster either merged into `mergedInto` or stayed a root (-1). */
export interface Hierarchy {
  mergedInto: Int32Array;
  /** Clusters that became layers, in the order they were decided (children before parents, roots last). */
  layers: number[];
  /** Layer fill per cluster id (4 entries each, RGBA): mean colour of what the cluster absorbed. */
  color: Float64Array;
  /** Every cluster in the order it was decided: each before the cluster it merged into. */
  order: Int32Array;
}

/**
 * Boundary edges at or above this multiple of the area mark a thread-like cluster (a band about a
 * pixel wide). Measured on the benchmark set: 1 (vtracer's rule) merges too much of noisy photos,
 * 2 keeps anti-aliasing fringes as layers; 1.5 gives the best PSNR per byte.
 */
const THREAD_RATIO = 1.5;

/**
 * Clusters up to this area merge in phase one (neighbours read from the pixel grid), larger ones in
 * phase two (adjacency lists). Phase one costs about four reads per pixel of the cluster, phase two
 * about one per boundary run plus building the lists; measured on the real set's photos.
 */
const SMALL_AREA = 16;

/**
 * Visits clusters from the smallest up; each merges into the adjacent cluster of the nearest mean
 * colour. Before merging, a cluster that is big enough, not thread-like and different enough is
 * recorded as a layer. A layer's pixels still join the parent's shape (so parents are solid under
 * their children: stacked output has no gaps) but not its colour; an absorbed speckle joins both.
 *
 * Noisy photos start with about one cluster per pixel and nearly all merges involve clusters of a
 * few pixels, so those merge straight from the pixel grid (merge-small.ts) before any adjacency list
 * exists; the lists are built once for the clusters left, which are far fewer (merge-by-area.ts).
 */
export function buildHierarchy(clustering: Clustering, settings: HierarchySettings): Hierarchy {
  const state = new MergeState(clustering);
  const queue = new AreaQueue(clustering.count);
  for (let c = 0; c < clustering.count; c++) if (clustering.area[c]! > 1) queue.push(clustering.area[c]!, c);
  const owner = mergeSmallClusters(clustering, state, settings, queue, SMALL_AREA);
  mergeByArea(clustering, state, settings, queue, owner);
  return { mergedInto: state.mergedInto(), layers: state.layers, color: state.colors(), order: state.order };
}

/** Whether a cluster about to merge at `distance` from its nearest neighbour is kept as a layer. */
export function keepsLayer(area: number, perimeter: number, distance: number, settings: HierarchySettings): boolean {
  // Thread-like clusters are typically anti-aliasing fringes: they belong to a neighbour, not to
  // a layer of their own. Frame edges are not in the perimeter, so a strip along a 1-pixel-high
  // image is not a thread.
  const threadLike = perimeter >= area * THREAD_RATIO;
  return area > settings.speckleArea && !threadLike && distance > settings.layerDifference;
}
