import { BruteForceIndex, dot, HnswIndex, type Neighbour } from '@trove/embeddings';
import { type CatalogEntry, type MemoryFilter, matchesFilter } from './filters.ts';
import { fingerprint, readSavedGraph, type SavedGraph, writeSavedGraph } from './saved-graph.ts';

export interface CatalogRow {
  id: string;
  namespace: string;
  status: string;
  createdAt: Date;
  deprecatedAt: Date | null;
  validUntil: Date | null;
  tags: string[] | null;
  metadata: unknown;
  /** Carried into a shared index's payload when the row was read with them. */
  memoryType?: string;
  updatedAt?: Date;
}

/** A row whose vector is being indexed: the content hash says which text the vector is of. */
export interface IndexedRow extends CatalogRow {
  contentHash: string;
}

// Inserting into the graph is most of an import's cost. Measured at 100k synthetic memories
// (recall@10 against an exact scan, µs per insert at the end): m 16 / efConstruction 100, the
// usual setting, 0.939 at ef 128 for 386 µs; m 24 / efConstruction 48, 0.950 at ef 200 for
// 236 µs: a wider graph built with a narrower search is both faster to build and, searched a
// little wider, more accurate. Writes search with ef 64 (duplicates and links need only the
// nearest few); recall searches with RECALL_EF (bench/speed.ts prints recall@10 and timings).
const HNSW_OPTIONS = { m: 24, efConstruction: 48, efSearch: 64 };
export const RECALL_EF = 200;
/** The widest unfiltered search tried before a filtered one (its cost grows with the width). */
const UNFILTERED_MAX = 256;

export function entryOf(row: CatalogRow): CatalogEntry {
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
  /** Memories (any status) per namespace: how much of the index a namespace filter passes. */
  private namespaceSizes = new Map<string, number>();
  /** Kept beside the graph for exact scans of small filtered sets and for `/verify`. */
  private vectors = new Map<string, Float32Array>();
  /** The content hash of the text each indexed vector was embedded from (rows read are checked against it). */
  private hashes = new Map<string, string>();
  private index: HnswIndex;
  /** During a rebuild from a saved graph: each memory's saved vector (its fingerprint), kept by `put` when the same. */
  private reusable: Map<string, number> | undefined;
  /** Memories whose vector the last rebuild kept from a saved graph instead of inserting it. */
  reused = 0;

  constructor(readonly dimensions: number) {
    this.index = new HnswIndex(dimensions, HNSW_OPTIONS);
  }

  get size(): number {
    return this.index.size;
  }

  /** Drops everything; the caller reloads. */
  reset(expected = 1024, saved?: SavedGraph): void {
    this.entries = new Map();
    this.namespaceSizes = new Map();
    this.vectors = new Map();
    this.hashes = new Map();
    this.index = saved?.graph ?? new HnswIndex(this.dimensions, { ...HNSW_OPTIONS, initialCapacity: expected });
    this.reusable = saved?.prints;
    this.reused = 0;
  }

  /** Adds or refreshes a memory; a null vector keeps it out of the vector index but known to filters. */
  put(row: IndexedRow, vector: Float32Array | null): void {
    this.setEntry(row.id, entryOf(row));
    if (vector && vector.length === this.dimensions) {
      const reusable = this.reusable?.get(row.id);
      if (reusable !== undefined && reusable === fingerprint(vector) && this.index.has(row.id)) this.reused++;
      else this.index.upsert(row.id, vector);
      this.vectors.set(row.id, vector);
      this.hashes.set(row.id, row.contentHash);
    } else {
      this.index.remove(row.id);
      this.vectors.delete(row.id);
      this.hashes.delete(row.id);
    }
  }

  /**
   * Starts a rebuild (as `reset`) from the graph `save` wrote for this model, when there is one
   * and it is whole: inserting into the graph is most of a start's cost (13 of 16 s at 100k
   * memories). The rows stay the truth: each memory keeps the saved vector only when it is the
   * one stored in its row (by fingerprint, in `put`), and `endRebuild` drops what the rows no
   * longer hold. A graph saved before later writes, by another model or half-written is thus
   * never trusted blindly.
   */
  resetFromSaved(file: string, model: string, expected: number): void {
    this.reset(expected, readSavedGraph(file, model, this.dimensions, HNSW_OPTIONS));
  }

  /** A rebuild put every row: memories the graph holds beyond `kept` are gone from the rows. */
  endRebuild(kept: Set<string>): void {
    if (!this.reusable) return;
    this.reusable = undefined;
    for (const id of [...this.index.ids()]) if (!kept.has(id)) this.index.remove(id);
  }

  /** Writes the graph for `resetFromSaved` (see saved-graph.ts). */
  save(file: string, model: string): void {
    writeSavedGraph(file, model, this.index, this.vectors);
  }

  /** The content hash the indexed vector of `id` was embedded from; undefined when it has none. */
  contentHashOf(id: string): string | undefined {
    return this.hashes.get(id);
  }

  /** Refreshes filter fields only (namespace moves, tag edits, status): the vector is unchanged. */
  touch(row: CatalogRow): void {
    if (this.entries.has(row.id)) this.setEntry(row.id, entryOf(row));
  }

  remove(id: string): void {
    this.setEntry(id, undefined);
    this.vectors.delete(id);
    this.hashes.delete(id);
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
    // hnswlib asks a filter about every node it visits, a call into JavaScript each (600 calls,
    // 1.4 ms, at ef 200): when enough of the index passes that a somewhat wider search finds k
    // (1.5 k over the share passing, up to UNFILTERED_MAX), search without it and filter after.
    const share = this.passShare(filter);
    const wide = Math.ceil((1.5 * k) / share);
    if (share > 0 && wide <= UNFILTERED_MAX) {
      const hits = this.index.search(query, wide, undefined, Math.max(ef ?? 0, wide)).filter((h) => accept(h.id));
      if (hits.length >= k) return hits.slice(0, k);
    }
    const hits = this.index.search(query, k, accept, ef);
    if (hits.length >= k) return hits;
    // A selective filter can starve the graph walk: scan the accepted few exactly instead.
    return this.scan(query, k, accept);
  }

  /** The share of the index a filter is expected to pass; 0 where that is not cheap to tell. */
  private passShare(filter: MemoryFilter): number {
    const { namespace, tags, category, entity, after, before, at } = filter;
    if (tags?.length || category !== undefined || entity !== undefined || after || before || at) return 0;
    if (namespace === undefined) return 1;
    return (this.namespaceSizes.get(namespace) ?? 0) / Math.max(1, this.entries.size);
  }

  private setEntry(id: string, entry: CatalogEntry | undefined): void {
    const before = this.entries.get(id);
    if (before) this.namespaceSizes.set(before.namespace, (this.namespaceSizes.get(before.namespace) ?? 1) - 1);
    if (!entry) {
      this.entries.delete(id);
      return;
    }
    this.entries.set(id, entry);
    this.namespaceSizes.set(entry.namespace, (this.namespaceSizes.get(entry.namespace) ?? 0) + 1);
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
