import { dot } from './embedder.ts';
import { assertDimensions, type Neighbour, type VectorIndex } from './vector-index.ts';

/**
 * Exact search by scanning every vector. The baseline the HNSW index is measured against, and
 * the better choice for small candidate sets (a filter that keeps a few hundred ids).
 */
export class BruteForceIndex implements VectorIndex {
  private readonly vectors = new Map<string, Float32Array>();
  constructor(readonly dimensions: number) {}

  get size(): number {
    return this.vectors.size;
  }

  upsert(id: string, vector: Float32Array): void {
    assertDimensions(this, vector);
    this.vectors.set(id, vector);
  }

  remove(id: string): boolean {
    return this.vectors.delete(id);
  }

  has(id: string): boolean {
    return this.vectors.has(id);
  }

  search(query: Float32Array, k: number, accept?: (id: string) => boolean): Neighbour[] {
    assertDimensions(this, query);
    const best: Neighbour[] = [];
    for (const [id, vector] of this.vectors) {
      if (accept && !accept(id)) continue;
      const score = dot(query, vector);
      if (best.length < k) {
        best.push({ id, score });
        if (best.length === k) best.sort((a, b) => b.score - a.score);
      } else if (score > (best[k - 1] as Neighbour).score) {
        // Insert in order, dropping the worst: k is small, so this beats a heap in practice.
        let at = k - 1;
        while (at > 0 && (best[at - 1] as Neighbour).score < score) at--;
        best.splice(at, 0, { id, score });
        best.pop();
      }
    }
    return best.length < k ? best.sort((a, b) => b.score - a.score) : best;
  }
}
