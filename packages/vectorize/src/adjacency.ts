import type { Clustering } from './clusters.ts';

/**
 * Cluster adjacency as singly linked lists in one pool of typed arrays: each entry names a
 * neighbour and how many pixel edges the two share. Merging two clusters splices their lists in
 * O(1); stale and repeated entries are cleaned when a list is next read (see `compact`).
 */
export class Adjacency {
  readonly head: Int32Array;
  readonly tail: Int32Array;
  next: Int32Array;
  target: Int32Array;
  weight: Int32Array;
  private size = 0;

  constructor(clusters: number, capacity: number) {
    this.head = new Int32Array(clusters).fill(-1);
    this.tail = new Int32Array(clusters).fill(-1);
    this.next = new Int32Array(Math.max(4, capacity));
    this.target = new Int32Array(Math.max(4, capacity));
    this.weight = new Int32Array(Math.max(4, capacity));
  }

  /** One more shared edge from a to b; boundaries come in runs, so repeat the last entry when it matches. */
  addEdge(a: number, b: number): void {
    const last = this.tail[a]!;
    if (last >= 0 && this.target[last] === b) {
      this.weight[last]! += 1;
      return;
    }
    if (this.size === this.next.length) this.grow();
    const node = this.size++;
    this.target[node] = b;
    this.weight[node] = 1;
    this.next[node] = -1;
    if (last >= 0) this.next[last] = node;
    else this.head[a] = node;
    this.tail[a] = node;
  }

  /** `weight` more shared edges from a to b, appended like `addEdge`. */
  addEdges(a: number, b: number, weight: number): void {
    this.addEdge(a, b);
    this.weight[this.tail[a]!]! += weight - 1;
  }

  /** Moves every entry of `from` to the end of `into`'s list. */
  splice(into: number, from: number): void {
    const first = this.head[from]!;
    if (first < 0) return;
    if (this.head[into]! < 0) this.head[into] = first;
    else this.next[this.tail[into]!] = first;
    this.tail[into] = this.tail[from]!;
    this.head[from] = -1;
    this.tail[from] = -1;
  }

  /**
   * Rewrites the list of `id` so each entry names a current cluster (via `resolve`) exactly once,
   * with summed weights, dropping entries that now point to `id` itself. `stamp` and `slot` are
   * scratch arrays the size of the cluster count (stamp must never hold `id` beforehand).
   */
  compact(id: number, resolve: (i: number) => number, stamp: Int32Array, slot: Int32Array): void {
    let node = this.head[id]!;
    let last = -1;
    while (node >= 0) {
      const following = this.next[node]!;
      const other = resolve(this.target[node]!);
      if (other !== id) {
        if (stamp[other] === id) this.weight[slot[other]!]! += this.weight[node]!;
        else {
          stamp[other] = id;
          slot[other] = node;
          this.target[node] = other;
          if (last >= 0) this.next[last] = node;
          else this.head[id] = node;
          last = node;
        }
      }
      node = following;
    }
    if (last >= 0) this.next[last] = -1;
    else this.head[id] = -1;
    this.tail[id] = last;
  }

  private grow(): void {
    const bigger = (a: Int32Array): Int32Array => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.next = bigger(this.next);
    this.target = bigger(this.target);
    this.weight = bigger(this.weight);
  }
}

/**
 * Adjacency of the clusters plus each one's perimeter: pixel edges against other clusters or
 * keyed-out pixels (the image frame does not count). Single-pixel clusters get no list of their
 * own (the hierarchy reads their four neighbours from the pixels), only entries in their
 * neighbours' lists: on a noisy photo they are most clusters, and their lists most of the pool.
 */
export function buildAdjacency(clustering: Clustering): { adjacency: Adjacency; perimeter: Float64Array } {
  const { width: w, height: h, labels, count, area } = clustering;
  let entries = 0;
  for (let c = 0; c < count; c++) if (area[c]! > 1) entries += area[c]!;
  const adjacency = new Adjacency(count, Math.min(2 * entries + 64, 1 << 20));
  const link = (a: number, b: number): void => {
    if (area[a]! > 1) adjacency.addEdge(a, b);
    if (area[b]! > 1) adjacency.addEdge(b, a);
  };
  const perimeter = new Float64Array(count);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const label = labels[row + x]!;
      if (x + 1 < w) {
        const right = labels[row + x + 1]!;
        if (right !== label) {
          if (label >= 0) perimeter[label]! += 1;
          if (right >= 0) perimeter[right]! += 1;
          if (label >= 0 && right >= 0) link(label, right);
        }
      }
      if (y + 1 < h) {
        const below = labels[row + w + x]!;
        if (below !== label) {
          if (label >= 0) perimeter[label]! += 1;
          if (below >= 0) perimeter[below]! += 1;
          if (label >= 0 && below >= 0) link(label, below);
        }
      }
    }
  }
  return { adjacency, perimeter };
}
