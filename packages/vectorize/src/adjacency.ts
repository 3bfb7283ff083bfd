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
 * Adjacency of clusters plus each one's perimeter: pixel edges against other clusters or keyed-out
 * pixels (the image frame does not count). `owner[2p]` is the cluster of pixel p (-1 when keyed
 * out) and `compactOf` numbers those clusters 0..count-1. One pass over the pixels collects the
 * edges between different clusters (in raster order, right neighbour before the one below) and
 * counts each cluster's entries; a second pass over just those edges writes the entries, so every
 * list lies contiguous in the pool. Boundaries come in runs: an edge to the neighbour of the
 * cluster's previous entry adds weight instead of an entry.
 */
export function buildAdjacency(
  width: number,
  height: number,
  owner: Int32Array,
  compactOf: Int32Array,
  count: number,
): { adjacency: Adjacency; perimeter: Float64Array } {
  const w = width;
  const perimeter = float64Scratch('adjacency perimeters', count).fill(0);
  const lastTarget = int32Scratch('adjacency last targets', count).fill(-1);
  const start = int32Scratch('adjacency starts', count + 1).fill(0);
  let edges = int32Scratch('adjacency edges', 1024);
  let edgeCount = 0;
  // Pass 1 over the pixels: perimeters, the edges between two clusters, entries per cluster.
  for (let y = 0; y < height; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const p = row + x;
      const label = owner[2 * p]!;
      for (let k = 0; k < 2; k++) {
        let q: number;
        if (k === 0) {
          if (x + 1 === w) continue;
          q = p + 1;
        } else {
          if (y + 1 === height) continue;
          q = p + w;
        }
        const other = owner[2 * q]!;
        if (other === label) continue;
        const a = label < 0 ? -1 : compactOf[label]!;
        const b = other < 0 ? -1 : compactOf[other]!;
        if (a >= 0) perimeter[a]! += 1;
        if (b >= 0) perimeter[b]! += 1;
        if (a < 0 || b < 0) continue;
        if (edgeCount + 2 > edges.length) {
          const bigger = int32Scratch('adjacency edges', 2 * edges.length);
          bigger.set(edges.subarray(0, edgeCount));
          edges = bigger;
        }
        edges[edgeCount++] = a;
        edges[edgeCount++] = b;
        if (lastTarget[a] !== b) {
          lastTarget[a] = b;
          start[a + 1]! += 1;
        }
        if (lastTarget[b] !== a) {
          lastTarget[b] = a;
          start[b + 1]! += 1;
        }
      }
    }
  }
  for (let c = 0; c < count; c++) start[c + 1]! += start[c]!;
  const adjacency = new Adjacency(count, start[count]!);
  const { head, tail, nodes } = adjacency;
  const fill = int32Scratch('adjacency fill', count);
  fill.set(start.subarray(0, count));
  lastTarget.fill(-1);
  // Pass 2 over the edges: the entries, in the same order, both directions.
  for (let e = 0; e < edgeCount; e += 2) {
    for (let k = 0; k < 2; k++) {
      const a = edges[e + k]!;
      const b = edges[e + 1 - k]!;
      if (lastTarget[a] === b) {
        nodes[3 * (fill[a]! - 1) + 2]! += 1;
        continue;
      }
      lastTarget[a] = b;
      const node = fill[a]!++;
      nodes[3 * node] = node + 1;
      nodes[3 * node + 1] = b;
      nodes[3 * node + 2] = 1;
    }
  }
  for (let c = 0; c < count; c++) {
    if (fill[c] === start[c]) continue;
    head[c] = start[c]!;
    tail[c] = fill[c]! - 1;
    nodes[3 * tail[c]!] = -1;
  }
  return { adjacency, perimeter };
}
