import { BruteForceIndex } from './brute-force-index.ts';
import { HnswIndex, type HnswOptions } from './hnsw-index.ts';
import type { Neighbour } from './vector-index.ts';

/** What a filtered search can ask about a stored vector, besides its closeness. Times in ms since the epoch. */
export interface VectorPayload {
  namespace: string;
  type: string;
  status: string;
  tags: string[];
  category: string | null;
  entity: string | null;
  createdAt: number;
  updatedAt: number;
  deprecatedAt: number | null;
  validUntil: number | null;
  /** The hash of the text the vector was embedded from, so a reader can tell a stale vector. */
  contentHash: string;
}

export interface VectorRecord {
  /** A UUID (Qdrant takes UUIDs or integers as point ids). */
  id: string;
  vector: Float32Array;
  payload: VectorPayload;
}

/**
 * A filtered search, with memory recall's semantics: without `at`, only `status: active`; with
 * `at` (time travel), whatever existed then (created, not yet deprecated or invalid), any status.
 * Every listed tag must be present; `after` and `before` bound `createdAt` (inclusive).
 */
export interface VectorFilter {
  namespace?: string | undefined;
  tags?: string[] | undefined;
  category?: string | undefined;
  entity?: string | undefined;
  after?: number | undefined;
  before?: number | undefined;
  at?: number | undefined;
}

/** A search hit, with the hash of the text its vector was embedded from (to check against the row). */
export interface VectorHit extends Neighbour {
  contentHash: string;
}

/**
 * Vectors with their payloads, searched by cosine similarity under a filter. Derived data: the
 * database rows stay the truth, and `upsert` of every row plus `delete` of ids no row has rebuilds
 * a store in place. Writes are idempotent by id, so a retried or replayed write is harmless.
 */
export interface VectorStore {
  readonly dimensions: number;
  /** Where the vectors live, for log lines and errors ("in-process HNSW", "Qdrant at http://..."). */
  readonly description: string;
  upsert(records: VectorRecord[]): Promise<void>;
  delete(ids: string[]): Promise<void>;
  /** The `k` nearest that pass `filter`, best first, with cosine similarity. */
  search(query: Float32Array, k: number, filter: VectorFilter): Promise<VectorHit[]>;
  /** The payload stored for `id`, if any. */
  payload(id: string): Promise<VectorPayload | undefined>;
  /** The stored records of these ids (absent ones are left out). */
  retrieve(ids: string[]): Promise<Map<string, VectorRecord>>;
  /** Every stored id, a page at a time. */
  ids(pageSize?: number): AsyncIterable<string[]>;
  count(): Promise<number>;
  /** Drops every vector. */
  reset(): Promise<void>;
  /** Throws, naming the store and its address, when it cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function matchesVectorFilter(p: VectorPayload, f: VectorFilter): boolean {
  if (f.at !== undefined) {
    if (p.createdAt > f.at) return false;
    if (p.deprecatedAt !== null && p.deprecatedAt <= f.at) return false;
    if (p.validUntil !== null && p.validUntil <= f.at) return false;
  } else if (p.status !== 'active') {
    return false;
  }
  if (f.namespace !== undefined && p.namespace !== f.namespace) return false;
  if (f.tags && !f.tags.every((t) => p.tags.includes(t))) return false;
  if (f.category !== undefined && p.category !== f.category) return false;
  if (f.entity !== undefined && p.entity !== f.entity) return false;
  if (f.after !== undefined && p.createdAt < f.after) return false;
  if (f.before !== undefined && p.createdAt > f.before) return false;
  return true;
}

/**
 * The in-process store: an HNSW graph plus the payloads in a map, for a single process or for
 * replicas kept current by a change feed. A selective filter is answered by an exact scan of the
 * vectors it keeps, since a graph walk that rejects most nodes can miss the few that pass.
 */
export class EmbeddedVectorStore implements VectorStore {
  private index: HnswIndex;
  private readonly records = new Map<string, { vector: Float32Array; payload: VectorPayload }>();

  readonly description = 'in-process HNSW';

  constructor(
    readonly dimensions: number,
    private readonly options: HnswOptions = { m: 24, efConstruction: 48, efSearch: 64 },
  ) {
    this.index = new HnswIndex(dimensions, options);
  }

  async upsert(records: VectorRecord[]): Promise<void> {
    for (const r of records) {
      const before = this.records.get(r.id);
      // The same vector again (a replayed write) keeps its graph node.
      if (!before || !sameVector(before.vector, r.vector)) this.index.upsert(r.id, r.vector);
      this.records.set(r.id, { vector: r.vector, payload: r.payload });
    }
  }

  async delete(ids: string[]): Promise<void> {
    for (const id of ids) {
      this.records.delete(id);
      this.index.remove(id);
    }
  }

  async search(query: Float32Array, k: number, filter: VectorFilter): Promise<VectorHit[]> {
    const accept = (id: string) => {
      const r = this.records.get(id);
      return r !== undefined && matchesVectorFilter(r.payload, filter);
    };
    let hits = this.index.search(query, k, accept, Math.max(64, k));
    if (hits.length < k) {
      // Fewer than k: either fewer pass the filter, or the walk missed them; an exact scan tells.
      const exact = new BruteForceIndex(this.dimensions);
      for (const [id, r] of this.records) if (matchesVectorFilter(r.payload, filter)) exact.upsert(id, r.vector);
      hits = exact.search(query, k);
    }
    return hits.map((h) => ({ ...h, contentHash: this.records.get(h.id)?.payload.contentHash ?? '' }));
  }

  async payload(id: string): Promise<VectorPayload | undefined> {
    return this.records.get(id)?.payload;
  }

  async retrieve(ids: string[]): Promise<Map<string, VectorRecord>> {
    const out = new Map<string, VectorRecord>();
    for (const id of ids) {
      const r = this.records.get(id);
      if (r) out.set(id, { id, ...r });
    }
    return out;
  }

  async *ids(pageSize = 1000): AsyncIterable<string[]> {
    const all = [...this.records.keys()];
    for (let i = 0; i < all.length; i += pageSize) yield all.slice(i, i + pageSize);
  }

  async ping(): Promise<void> {}

  async count(): Promise<number> {
    return this.records.size;
  }

  async reset(): Promise<void> {
    this.records.clear();
    this.index = new HnswIndex(this.dimensions, this.options);
  }

  async close(): Promise<void> {}
}

function sameVector(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
