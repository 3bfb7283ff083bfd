import hnswlib from 'hnswlib-node';
import { assertDimensions, type Neighbour, type VectorIndex } from './vector-index.ts';

const { HierarchicalNSW } = hnswlib;

export interface HnswOptions {
  /** Graph degree: higher is more accurate and larger. */
  m?: number;
  efConstruction?: number;
  /** Search breadth; raised to k when k is larger. */
  efSearch?: number;
  initialCapacity?: number;
}

/**
 * Approximate nearest neighbours with hnswlib (HNSW graph, native). Vectors are unit length, so
 * the inner-product space gives cosine similarity. Labels are integers; a map ties them to ids.
 * Replacing a vector marks the old label deleted and adds a new one; the graph grows as needed.
 */
export class HnswIndex implements VectorIndex {
  private readonly graph: InstanceType<typeof HierarchicalNSW>;
  private readonly labelOf = new Map<string, number>();
  private readonly idOf: string[] = [];
  private capacity: number;
  private readonly efSearch: number;

  constructor(
    readonly dimensions: number,
    options: HnswOptions = {},
  ) {
    this.capacity = Math.max(1024, options.initialCapacity ?? 1024);
    this.efSearch = options.efSearch ?? 64;
    this.graph = new HierarchicalNSW('ip', dimensions);
    this.graph.initIndex(this.capacity, options.m ?? 16, options.efConstruction ?? 200);
  }

  get size(): number {
    return this.labelOf.size;
  }

  upsert(id: string, vector: Float32Array): void {
    assertDimensions(this, vector);
    this.remove(id);
    const label = this.idOf.length;
    if (label >= this.capacity) {
      this.capacity *= 2;
      this.graph.resizeIndex(this.capacity);
    }
    this.graph.addPoint(Array.from(vector), label);
    this.idOf.push(id);
    this.labelOf.set(id, label);
  }

  remove(id: string): boolean {
    const label = this.labelOf.get(id);
    if (label === undefined) return false;
    this.graph.markDelete(label);
    this.labelOf.delete(id);
    return true;
  }

  has(id: string): boolean {
    return this.labelOf.has(id);
  }

  /** Every id held. */
  ids(): IterableIterator<string> {
    return this.labelOf.keys();
  }

  /**
   * Writes the graph to `file` and returns its labels (the id at each, null where deleted), which
   * `load` needs beside it: hnswlib's file holds vectors, links and deletion marks, not our ids.
   */
  save(file: string): (string | null)[] {
    this.graph.writeIndexSync(file);
    return this.idOf.map((id, label) => (this.labelOf.get(id) === label ? id : null));
  }

  /** A graph `save` wrote, with the labels it returned; searched with `options.efSearch`. */
  static load(file: string, dimensions: number, labels: (string | null)[], options: HnswOptions = {}): HnswIndex {
    const index = new HnswIndex(dimensions, { ...options, initialCapacity: 1 });
    index.graph.readIndexSync(file);
    if (index.graph.getCurrentCount() !== labels.length) {
      throw new Error(`${file} holds ${index.graph.getCurrentCount()} vectors for ${labels.length} labels`);
    }
    // An empty graph reads back with room for none.
    index.capacity = Math.max(1024, index.graph.getMaxElements());
    if (index.graph.getMaxElements() < index.capacity) index.graph.resizeIndex(index.capacity);
    labels.forEach((id, label) => {
      index.idOf.push(id ?? '');
      if (id !== null) index.labelOf.set(id, label);
    });
    return index;
  }

  /** `ef` overrides the configured search breadth for this call (never below k). */
  search(query: Float32Array, k: number, accept?: (id: string) => boolean, ef = this.efSearch): Neighbour[] {
    assertDimensions(this, query);
    const want = Math.min(k, this.size);
    if (want <= 0) return [];
    this.graph.setEf(Math.max(ef, want));
    const filter = accept ? (label: number) => accept(this.idOf[label] as string) : undefined;
    const { neighbors, distances } = this.graph.searchKnn(Array.from(query), want, filter);
    // In the inner-product space hnswlib reports 1 - similarity.
    return neighbors.map((label, i) => ({ id: this.idOf[label] as string, score: 1 - (distances[i] as number) }));
  }
}
