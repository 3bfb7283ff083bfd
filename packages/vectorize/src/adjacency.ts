import { float64Scratch, int32Scratch } from './scratch.ts';

/**
 * Cluster adjacency as singly linked lists in one pool: each node is three consecutive Int32 slots
 * (next node, neighbour, shared pixel edges), so following a list touches one cache line per node
 * rather than three. Lists start out contiguous (built in two passes over the pixels); merging two
 * clusters splices their lists in O(1); stale and repeated entries are cleaned by the reader when
 * it next reads a list (see merge-by-area.ts).
 */
export class Adjacency {
  readonly head: Int32Array;
  readonly tail: Int32Array;
  /** node k: [3k] next node (-1 ends the list), [3k + 1] neighbour, [3k + 2] weight. */
  readonly nodes: Int32Array;

  constructor(clusters: number, capacity: number) {
    this.head = int32Scratch('adjacency heads', clusters).fill(-1);
    this.tail = int32Scratch('adjacency tails', clusters).fill(-1);
    this.nodes = int32Scratch('adjacency nodes', 3 * Math.max(1, capacity));
  }

  /** Moves every entry of `from` to the end of `into`'s list. */
  splice(into: number, from: number): void {
    const first = this.head[from]!;
    if (first < 0) return;
    if (this.head[into]! < 0) this.head[into] = first;
    else this.nodes[3 * this.tail[into]!] = first;
    this.tail[into] = this.tail[from]!;
    this.head[from] = -1;
    this.tail[from] = -1;
  }
}

/**
 * Adjacency of the clusters named by `roots` (cluster per pixel, -1 for keyed-out pixels; ids below
 * `count`) plus each one's perimeter: pixel edges against other clusters or keyed-out pixels (the
 * image frame does not count). Two passes over the pixel edges in raster order: the first counts
 * each cluster's entries, the second writes them, so every list lies contiguous in the pool.
 * Boundaries come in runs: an edge to the neighbour of the cluster's previous entry adds weight
 * instead of an entry.
 */
export function buildAdjacency(
  width: number,
  height: number,
  roots: Int32Array,
  count: number,
): { adjacency: Adjacency; perimeter: Float64Array } {
  const perimeter = float64Scratch('adjacency perimeters', count).fill(0);
  const lastTarget = int32Scratch('adjacency last targets', count).fill(-1);
  const start = int32Scratch('adjacency starts', count + 1).fill(0);
  // Pass 1: entries per cluster (and perimeters).
  forEachEdge(width, height, roots, (a, b) => {
    if (a >= 0) perimeter[a]! += 1;
    if (b >= 0) perimeter[b]! += 1;
    if (a < 0 || b < 0) return;
    if (lastTarget[a] !== b) {
      lastTarget[a] = b;
      start[a + 1]! += 1;
    }
    if (lastTarget[b] !== a) {
      lastTarget[b] = a;
      start[b + 1]! += 1;
    }
  });
  for (let c = 0; c < count; c++) start[c + 1]! += start[c]!;
  const adjacency = new Adjacency(count, start[count]!);
  const { head, tail, nodes } = adjacency;
  const fill = int32Scratch('adjacency fill', count);
  fill.set(start.subarray(0, count));
  lastTarget.fill(-1);
  const add = (a: number, b: number): void => {
    if (lastTarget[a] === b) {
      nodes[3 * (fill[a]! - 1) + 2]! += 1;
      return;
    }
    lastTarget[a] = b;
    const node = fill[a]!++;
    nodes[3 * node] = node + 1;
    nodes[3 * node + 1] = b;
    nodes[3 * node + 2] = 1;
  };
  // Pass 2: the entries, in the same order.
  forEachEdge(width, height, roots, (a, b) => {
    if (a < 0 || b < 0) return;
    add(a, b);
    add(b, a);
  });
  for (let c = 0; c < count; c++) {
    if (fill[c] === start[c]) continue;
    head[c] = start[c]!;
    tail[c] = fill[c]! - 1;
    nodes[3 * tail[c]!] = -1;
  }
  return { adjacency, perimeter };
}

/** Calls `visit(a, b)` for each pixel edge (right, then below neighbour) between different clusters. */
function forEachEdge(w: number, h: number, roots: Int32Array, visit: (a: number, b: number) => void): void {
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const label = roots[row + x]!;
      if (x + 1 < w) {
        const right = roots[row + x + 1]!;
        if (right !== label) visit(label, right);
      }
      if (y + 1 < h) {
        const below = roots[row + w + x]!;
        if (below !== label) visit(label, below);
      }
    }
  }
}
