import { MinHeap } from './min-heap.ts';

/** Areas below this go to buckets (O(1) push and pop); larger ones to a binary heap. */
const BUCKETS = 256;
const EMPTY = new Int32Array(0);

/**
 * Priority queue of cluster ids by area for the hierarchy, where almost all traffic is small
 * clusters (noisy photos start with one cluster per pixel). A bucket is a stack (the id pushed last
 * comes out first) in its own growing array: pushes and pops touch the end of one array, not slots
 * scattered over a shared pool. Valid only for monotone use: nothing is pushed below the area last
 * popped, which holds because a merge only ever grows a cluster.
 */
export class AreaQueue {
  private readonly stacks: Int32Array[];
  private readonly heights = new Int32Array(BUCKETS);
  private current = 1;
  private readonly initial: number;
  private readonly heap: MinHeap;
  size = 0;
  /** Filled by `pop`. */
  id = -1;
  area = 0;

  constructor(capacity: number) {
    // Buckets start empty (one shared empty array) and grow by doubling, from a sixteenth of the
    // clusters: a tiny icon should not pay for 256 arrays.
    this.initial = Math.max(16, capacity >> 4);
    this.stacks = new Array<Int32Array>(BUCKETS).fill(EMPTY);
    this.heap = new MinHeap(64);
  }

  push(area: number, id: number): void {
    this.size++;
    if (area >= BUCKETS) {
      this.heap.push(area, id);
      return;
    }
    let stack = this.stacks[area]!;
    const height = this.heights[area]!;
    if (height === stack.length) {
      const bigger = new Int32Array(height === 0 ? this.initial : 2 * height);
      bigger.set(stack);
      this.stacks[area] = stack = bigger;
    }
    stack[height] = id;
    this.heights[area] = height + 1;
    if (area < this.current) this.current = area;
  }

  /** The smallest area queued (perhaps that of a stale entry); Infinity when empty. */
  peekArea(): number {
    while (this.current < BUCKETS && this.heights[this.current] === 0) this.current++;
    if (this.current < BUCKETS) return this.current;
    return this.heap.size > 0 ? this.heap.topPriority : Number.POSITIVE_INFINITY;
  }

  /** Removes the entry with the smallest area into `id` and `area`; call only when size > 0. */
  pop(): void {
    this.size--;
    while (this.current < BUCKETS && this.heights[this.current] === 0) this.current++;
    if (this.current < BUCKETS) {
      const height = this.heights[this.current]! - 1;
      this.heights[this.current] = height;
      this.id = this.stacks[this.current]![height]!;
      this.area = this.current;
      return;
    }
    this.id = this.heap.topId;
    this.area = this.heap.topPriority;
    this.heap.pop();
  }
}
