/** Binary min-heap of (priority, id) pairs in typed arrays; stale entries are skipped by the caller. */
export class MinHeap {
  private priorities: Float64Array;
  private ids: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.priorities = new Float64Array(Math.max(4, capacity));
    this.ids = new Int32Array(Math.max(4, capacity));
  }

  push(priority: number, id: number): void {
    if (this.size === this.ids.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (this.priorities[up]! <= priority) break;
      this.priorities[i] = this.priorities[up]!;
      this.ids[i] = this.ids[up]!;
      i = up;
    }
    this.priorities[i] = priority;
    this.ids[i] = id;
  }

  /** Removes the smallest entry; read it with `topPriority`/`topId` before calling. */
  pop(): void {
    const last = --this.size;
    const priority = this.priorities[last]!;
    const id = this.ids[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.priorities[child + 1]! < this.priorities[child]!) child++;
      if (this.priorities[child]! >= priority) break;
      this.priorities[i] = this.priorities[child]!;
      this.ids[i] = this.ids[child]!;
      i = child;
    }
    this.priorities[i] = priority;
    this.ids[i] = id;
  }

  get topPriority(): number {
    return this.priorities[0]!;
  }

  get topId(): number {
    return this.ids[0]!;
  }

  private grow(): void {
    const priorities = new Float64Array(this.ids.length * 2);
    priorities.set(this.priorities);
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.priorities = priorities;
    this.ids = ids;
  }
}
