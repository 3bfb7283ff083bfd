import { BruteForceIndex, dot, HnswIndex, type Neighbour } from '@trove/embeddings';
import { type CatalogEntry, type MemoryFilter, matchesFilter } from './filters.ts';

export interface CatalogRow {
  id: string;
  namespace: string;
  status: string;
  createdAt: Date;
  deprecatedAt: Date | null;
  validUntil: Date | null;
  tags: string[] | null;
  metadata: unknown;
}

// Building the graph is most of an import's cost: efConstruction 100 (half of hnswlib's usual 200)
// roughly halves it at little loss. Writes search with ef 64 (duplicates and links need only the
// nearest few); recall searches wider, RECALL_EF: at 100k memories recall@10 against an exact scan
// goes from 0.87 to 0.94 for about 0.2 ms more (bench/speed.ts prints both).
const HNSW_OPTIONS = { m: 16, efConstruction: 100, efSearch: 64 };
export const RECALL_EF = 128;

function entryOf(row: CatalogRow): CatalogEntry {
  const meta = (row.metadata ?? {}) as Record<string, unknown>;
  return {
    namespace: row.namespace,
    active: row.status === 'active',
    createdAt: row.createdAt.getTime(),
    deprecatedAt: row.deprecatedAt?.getTime() ?? null,
    validUntil: row.validUntil?.getTime() ?? null,
    tags: row.tags ?? [],
    category: typeof meta.category === 'string' ? meta.category : null,
    entity: typeof meta.entity === 'string' ? meta.entity : null,
  };
}

/**
 * The in-process side of the store: every embedded memory's vector in an HNSW index, plus the few
 * fields the filters need, so a filtered vector search never touches the database. Deprecated
 * memories stay indexed (time travel needs them); the filter hides them from ordinary recalls.
 * Derived data: rebuilt from stored embeddings at start and by `/repair`.
 */
export class VectorCatalog {
  private entries = new Map<string, CatalogEntry>();
  /** Kept beside the graph for exact scans of small filtered sets and for `/verify`. */
  private vectors = new Map<string, Float32Array>();
  private index: HnswIndex;

  constructor(readonly dimensions: number) {
    this.index = new HnswIndex(dimensions, HNSW_OPTIONS);
  }

  get size(): number {
    return this.index.size;
  }

  /** Drops everything; the caller reloads. */
  reset(expected = 1024): void {
    this.entries = new Map();
    this.vectors = new Map();
    this.index = new HnswIndex(this.dimensions, { ...HNSW_OPTIONS, initialCapacity: expected });
  }

  /** Adds or refreshes a memory; a null vector keeps it out of the vector index but known to filters. */
  put(row: CatalogRow, vector: Float32Array | null): void {
    this.entries.set(row.id, entryOf(row));
    if (vector && vector.length === this.dimensions) {
      this.index.upsert(row.id, vector);
      this.vectors.set(row.id, vector);
    } else {
      this.index.remove(row.id);
      this.vectors.delete(row.id);
    }
  }

  /** Refreshes filter fields only (namespace moves, tag edits, status): the vector is unchanged. */
  touch(row: CatalogRow): void {
    if (this.entries.has(row.id)) this.entries.set(row.id, entryOf(row));
  }

  remove(id: string): void {
    this.entries.delete(id);
    this.vectors.delete(id);
    this.index.remove(id);
  }

  hasVector(id: string): boolean {
    return this.index.has(id);
  }

  vector(id: string): Float32Array | undefined {
    return this.vectors.get(id);
  }

  /** Ids in the vector index (for `/verify`). */
  indexedIds(): IterableIterator<string> {
    return this.vectors.keys();
  }

  entry(id: string): CatalogEntry | undefined {
    return this.entries.get(id);
  }

  /** The `k` nearest memories that pass `filter`, best first, with cosine similarity. */
  search(query: Float32Array, k: number, filter: MemoryFilter, ef?: number): Neighbour[] {
    if (dot(query, query) === 0) return [];
    const accept = (id: string) => {
      const e = this.entries.get(id);
      return e !== undefined && matchesFilter(e, filter);
    };
    const hits = this.index.search(query, k, accept, ef);
    if (hits.length >= k) return hits;
    // A selective filter can starve the graph walk: scan the accepted few exactly instead.
    return this.scan(query, k, accept);
  }

  private scan(query: Float32Array, k: number, accept: (id: string) => boolean): Neighbour[] {
    const exact = new BruteForceIndex(this.dimensions);
    for (const id of this.entries.keys()) {
      if (!accept(id)) continue;
      const v = this.vectors.get(id);
      if (v) exact.upsert(id, v);
    }
    return exact.search(query, k);
  }
}
