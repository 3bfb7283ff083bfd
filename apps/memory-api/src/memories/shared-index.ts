import type { VectorFilter, VectorPayload, VectorRecord, VectorStore } from '@trove/embeddings';
import { DomainError } from '../domain-error.ts';
import type { CatalogEntry, MemoryFilter } from './filters.ts';
import type { IndexedItem, IndexedMemory, IndexHit, MemoryIndex } from './memory-index.ts';
import { type CatalogRow, entryOf } from './vector-catalog.ts';

/** Reads the named memories with their stored vectors (for writes that changed only filter fields). */
export type RowLoader = (ids: string[]) => Promise<IndexedItem[]>;

const WRITE_BATCH = 256;

export function payloadOf(item: IndexedItem): VectorPayload {
  const { row } = item;
  // The catalog's filter fields, with the status itself in place of its `active` flag.
  const { active: _active, ...entry } = entryOf(row);
  return {
    ...entry,
    type: row.memoryType ?? '',
    status: row.status,
    updatedAt: (row.updatedAt ?? row.createdAt).getTime(),
    contentHash: row.contentHash,
  };
}

function entryFromPayload(p: VectorPayload): CatalogEntry {
  return {
    namespace: p.namespace,
    active: p.status === 'active',
    createdAt: p.createdAt,
    deprecatedAt: p.deprecatedAt,
    validUntil: p.validUntil,
    tags: p.tags,
    category: p.category,
    entity: p.entity,
  };
}

function vectorFilter(f: MemoryFilter): VectorFilter {
  return {
    namespace: f.namespace,
    tags: f.tags,
    category: f.category,
    entity: f.entity,
    after: f.after?.getTime(),
    before: f.before?.getTime(),
    at: f.at?.getTime(),
  };
}

/**
 * One vector store shared by every replica (Qdrant). Points are keyed by memory id, so a write
 * replayed by the change feed on each replica replaces rather than duplicates; a memory with no
 * usable vector has no point. A rebuild upserts every row and then deletes points no row has,
 * never emptying the store other replicas are searching.
 */
export class SharedIndex implements MemoryIndex {
  readonly shared = true;

  constructor(
    private readonly store: VectorStore,
    readonly key: string,
    private readonly loadRows: RowLoader,
  ) {}

  get description(): string {
    return this.store.description;
  }

  async search(query: Float32Array, k: number, filter: MemoryFilter): Promise<IndexHit[]> {
    const hits = await this.reading(() => this.store.search(query, k, vectorFilter(filter)));
    return hits.map((h) => ({ id: h.id, score: h.score, contentHash: h.contentHash }));
  }

  async vectors(ids: string[]): Promise<Map<string, IndexedMemory>> {
    const out = new Map<string, IndexedMemory>();
    for (const [id, r] of await this.retrieve(ids)) {
      out.set(id, { vector: r.vector, entry: entryFromPayload(r.payload), contentHash: r.payload.contentHash });
    }
    return out;
  }

  /** From the rows, not the store: the truth, and no round trip to the store for a filter check. */
  async entries(ids: string[]): Promise<Map<string, CatalogEntry>> {
    const items = await this.loadRows(ids);
    return new Map(items.map((i) => [i.row.id, entryOf(i.row)]));
  }

  async put(items: IndexedItem[]): Promise<void> {
    const records: VectorRecord[] = [];
    const unembedded: string[] = [];
    for (const item of items) {
      if (item.vector && item.vector.length === this.store.dimensions) {
        records.push({ id: item.row.id, vector: item.vector, payload: payloadOf(item) });
      } else {
        unembedded.push(item.row.id);
      }
    }
    for (let i = 0; i < records.length; i += WRITE_BATCH) await this.store.upsert(records.slice(i, i + WRITE_BATCH));
    await this.store.delete(unembedded);
  }

  async touch(rows: CatalogRow[]): Promise<void> {
    if (rows.length === 0) return;
    // A point carries every filter field beside its vector: rewrite it whole from the row.
    const ids = rows.map((r) => r.id);
    const items = await this.loadRows(ids);
    await this.put(items);
    const found = new Set(items.map((i) => i.row.id));
    await this.store.delete(ids.filter((id) => !found.has(id)));
  }

  async remove(ids: string[]): Promise<void> {
    await this.store.delete(ids);
  }

  async beginRebuild(): Promise<void> {}

  async endRebuild(kept: Set<string>): Promise<void> {
    const gone: string[] = [];
    for await (const page of this.store.ids()) for (const id of page) if (!kept.has(id)) gone.push(id);
    for (let i = 0; i < gone.length; i += WRITE_BATCH) await this.store.delete(gone.slice(i, i + WRITE_BATCH));
  }

  ids(): AsyncIterable<string[]> {
    return this.store.ids();
  }

  count(): Promise<number> {
    return this.store.count();
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private async retrieve(ids: string[]): Promise<Map<string, VectorRecord>> {
    const out = new Map<string, VectorRecord>();
    for (let i = 0; i < ids.length; i += 1000) {
      const page = await this.reading(() => this.store.retrieve(ids.slice(i, i + 1000)));
      for (const [id, r] of page) out.set(id, r);
    }
    return out;
  }

  /** A read the caller waits on: an unreachable store is a 503 that names it, not a 500. */
  private async reading<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      throw new DomainError('UNAVAILABLE', `${this.description} could not be read: ${(err as Error).message}`, 5);
    }
  }
}
