import { MinHeap } from './min-heap.ts';

/** Areas below this go to buckets (O(1) push and pop); larger ones to a binary heap. */
const BUCKETS = 256;

/**
 * Priority queue of cluster ids by area for the hierarchy, where almost all traffic is small
 * clusters (noisy photos start with one cluster per pixel). Valid only for monotone use: nothing is
 * pushed below the area last popped, which holds because a merge only ever grows a cluster.
 */
export class AreaQueue {
  private readonly head = new Int32Array(BUCKETS).fill(-1);
  private ids: Int32Array;
  private next: Int32Array;
  private used = 0;
  private free = -1;
  private current = 1;
  private readonly heap: MinHeap;
  size = 0;
  /** Filled by `pop`. */
  id = -1;
  area = 0;

  constructor(capacity: number) {
    this.ids = new Int32Array(Math.max(4, capacity));
    this.next = new Int32Array(Math.max(4, capacity));
    this.heap = new MinHeap(64);
  }

  push(area: number, id: number): void {
    this.size++;
    if (area >= BUCKETS) {
      this.heap.push(area, id);
      return;
    }
    let slot = this.free;
    if (slot >= 0) this.free = this.next[slot]!;
    else {
      if (this.used === this.ids.length) this.grow();
      slot = this.used++;
    }
    this.ids[slot] = id;
    this.next[slot] = this.head[area]!;
    this.head[area] = slot;
    if (area < this.current) this.current = area;
  }

  /** Removes the entry with the smallest area into `id` and `area`; call only when size > 0. */
  pop(): void {
    this.size--;
    while (this.current < BUCKETS && this.head[this.current]! < 0) this.current++;
    if (this.current < BUCKETS) {
      const slot = this.head[this.current]!;
      this.head[this.current] = this.next[slot]!;
      this.next[slot] = this.free;
      this.free = slot;
      this.id = this.ids[slot]!;
      this.area = this.current;
      return;
    }
    this.id = this.heap.topId;
    this.area = this.heap.topPriority;
    this.heap.pop();
  }

  private grow(): void {
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    const next = new Int32Array(this.next.length * 2);
    next.set(this.next);
    this.ids = ids;
    this.next = next;
  }
}
