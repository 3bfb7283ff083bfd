/** A nearest-neighbour index over unit vectors, keyed by string id. Derived data: rebuildable. */
export interface VectorIndex {
  readonly dimensions: number;
  /** Live (not removed) vectors. */
  readonly size: number;
  /** Adds or replaces the vector of `id`. */
  upsert(id: string, vector: Float32Array): void;
  remove(id: string): boolean;
  has(id: string): boolean;
  /** The `k` most similar vectors by cosine similarity, best first, among ids `accept` allows. */
  search(query: Float32Array, k: number, accept?: (id: string) => boolean): Neighbour[];
}

export interface Neighbour {
  id: string;
  /** Cosine similarity, -1..1. */
  score: number;
}

export function assertDimensions(index: { dimensions: number }, vector: Float32Array): void {
  if (vector.length !== index.dimensions) {
    throw new RangeError(`vector has ${vector.length} dimensions; the index holds ${index.dimensions}`);
  }
}
