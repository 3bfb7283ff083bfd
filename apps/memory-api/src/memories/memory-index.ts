import type { Neighbour } from '@trove/embeddings';
import type { CatalogEntry, MemoryFilter } from './filters.ts';
import type { CatalogRow, IndexedRow, VectorCatalog } from './vector-catalog.ts';

/** A search hit with the hash of the text its vector was embedded from when searched (checked against the row). */
export interface IndexHit extends Neighbour {
  contentHash: string | undefined;
}

/** What an index holds for one memory with a vector. */
export interface IndexedMemory {
  vector: Float32Array;
  entry: CatalogEntry;
  contentHash: string;
}

export interface IndexedItem {
  row: IndexedRow;
  /** Null keeps the memory out of the vector search (no usable embedding) but known to filters. */
  vector: Float32Array | null;
}

/**
 * Where memory-api's vectors are searched. Two implementations, chosen by configuration: each
 * replica's own in-process HNSW (`CatalogIndex`), kept current by the change feed, or one shared
 * store every replica reads and writes (`SharedIndex` over Qdrant). Either way the rows stay the
 * truth: every hit is confirmed against its row before it is returned (MemoryStore.confirms).
 */
export interface MemoryIndex {
  /** For log lines and /verify: "in-process HNSW", "Qdrant at http://host:6333 (collection ...)". */
  readonly description: string;
  /** One index for every replica: it outlives them, so it is rebuilt in place and only when behind. */
  readonly shared: boolean;
  /** The identity of what is indexed (shared: the collection), under which its position is kept. */
  readonly key: string;
  search(query: Float32Array, k: number, filter: MemoryFilter, ef?: number): Promise<IndexHit[]>;
  /** Vector, filter fields and text hash of those of `ids` the index holds a vector for. */
  vectors(ids: string[]): Promise<Map<string, IndexedMemory>>;
  /** Filter fields of those of `ids` the index knows. */
  entries(ids: string[]): Promise<Map<string, CatalogEntry>>;
  put(items: IndexedItem[]): Promise<void>;
  /**
   * `put`, applied before anything else reads or writes this index, and otherwise once the events
   * waiting now are handled (an answer is sent first). In process only: absent on a shared index.
   */
  putSoon?(items: IndexedItem[], failed: (err: unknown) => void): void;
  /** Filter fields changed (status, tags, namespace...); the vector did not. */
  touch(rows: CatalogRow[]): Promise<void>;
  remove(ids: string[]): Promise<void>;
  /** A full rebuild starts: `expected` rows will be put. */
  beginRebuild(expected: number): Promise<void>;
  /** A full rebuild ended: `kept` are the ids put; anything else held is gone from the rows. */
  endRebuild(kept: Set<string>): Promise<void>;
  /** Every id the index holds, a page at a time (for /verify). */
  ids(): AsyncIterable<string[]>;
  count(): Promise<number>;
  /** Throws naming the index and its address when it cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

function same(a: Float32Array | undefined, b: Float32Array): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The in-process index: the catalog's HNSW graph and filter fields, answered without I/O. */
export class CatalogIndex implements MemoryIndex {
  readonly description = 'in-process HNSW';
  readonly shared = false;
  readonly key = 'in-process';

  /**
   * `saved`: where the graph is written on close and read back at the next start's rebuild (the
   * embedded database's directory), with the model it was embedded by; none keeps it in memory only.
   */
  constructor(
    private readonly catalog: VectorCatalog,
    private readonly saved?: { file: string; model: string },
  ) {}

  /** Whether a rebuild completed: a start that failed before it must not save an empty graph over a good one. */
  private built = false;
  /** Writes `putSoon` took, applied by the next use of the index or right after the events waiting. */
  private pending: { items: IndexedItem[]; failed: (err: unknown) => void }[] = [];

  putSoon(items: IndexedItem[], failed: (err: unknown) => void): void {
    // setImmediate, not the next tick: Node sends a response on the next tick.
    if (this.pending.length === 0) setImmediate(() => this.flush());
    this.pending.push({ items, failed });
  }

  /** Applies the deferred writes, so that every other use sees the index as if they had been awaited. */
  private flush(): void {
    if (this.pending.length === 0) return;
    const batches = this.pending;
    this.pending = [];
    for (const { items, failed } of batches) {
      try {
        this.apply(items);
      } catch (err) {
        failed(err);
      }
    }
  }

  async search(query: Float32Array, k: number, filter: MemoryFilter, ef?: number): Promise<IndexHit[]> {
    this.flush();
    return this.catalog
      .search(query, k, filter, ef)
      .map((h) => ({ ...h, contentHash: this.catalog.contentHashOf(h.id) }));
  }

  async vectors(ids: string[]): Promise<Map<string, IndexedMemory>> {
    this.flush();
    const out = new Map<string, IndexedMemory>();
    for (const id of ids) {
      const vector = this.catalog.vector(id);
      const entry = this.catalog.entry(id);
      const contentHash = this.catalog.contentHashOf(id);
      if (vector && entry && contentHash !== undefined) out.set(id, { vector, entry, contentHash });
    }
    return out;
  }

  async entries(ids: string[]): Promise<Map<string, CatalogEntry>> {
    this.flush();
    const out = new Map<string, CatalogEntry>();
    for (const id of ids) {
      const entry = this.catalog.entry(id);
      if (entry) out.set(id, entry);
    }
    return out;
  }

  async put(items: IndexedItem[]): Promise<void> {
    this.flush();
    this.apply(items);
  }

  private apply(items: IndexedItem[]): void {
    for (const { row, vector } of items) {
      // The vector of the text already indexed (the change feed replaying this replica's own
      // write): only the filter fields can have changed, and re-inserting into the graph costs.
      if (vector && this.catalog.contentHashOf(row.id) === row.contentHash && same(this.catalog.vector(row.id), vector))
        this.catalog.touch(row);
      else this.catalog.put(row, vector);
    }
  }

  async touch(rows: CatalogRow[]): Promise<void> {
    this.flush();
    for (const row of rows) this.catalog.touch(row);
  }

  async remove(ids: string[]): Promise<void> {
    this.flush();
    for (const id of ids) this.catalog.remove(id);
  }

  async beginRebuild(expected: number): Promise<void> {
    this.flush();
    const capacity = Math.max(1024, expected);
    if (this.saved) this.catalog.resetFromSaved(this.saved.file, this.saved.model, capacity);
    else this.catalog.reset(capacity);
  }

  async endRebuild(kept: Set<string>): Promise<void> {
    this.flush();
    this.catalog.endRebuild(kept);
    this.built = true;
  }

  async *ids(): AsyncIterable<string[]> {
    this.flush();
    yield [...this.catalog.indexedIds()];
  }

  async count(): Promise<number> {
    this.flush();
    return this.catalog.size;
  }

  async ping(): Promise<void> {}

  /** The catalog with every deferred write applied. */
  catalogNow(): VectorCatalog {
    this.flush();
    return this.catalog;
  }

  async close(): Promise<void> {
    this.flush();
    if (this.saved && this.built) this.catalog.save(this.saved.file, this.saved.model);
  }
}

/** The in-process catalog behind an index (benchmarks and tests look inside it); throws for a shared one. */
export function inProcessCatalog(index: MemoryIndex): VectorCatalog {
  if (!(index instanceof CatalogIndex)) throw new Error(`the vector index is ${index.description}, not in process`);
  return index.catalogNow();
}
