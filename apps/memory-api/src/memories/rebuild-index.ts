import { type StoredEmbedding, storedVector } from './embedding-codec.ts';
import type { IndexedItem } from './memory-index.ts';
import type { MemoryStore } from './memory-store.ts';
import { CATALOG_SELECT, catalogRow, countRows } from './sql-rows.ts';

const LOAD_PAGE = 5000;

export interface RebuildCounts {
  indexed: number;
  reembedded: number;
  unembedded: number;
}

/**
 * Rebuilds the store's index from the rows' stored embeddings, a page at a time (see
 * `MemoryStore.rebuildIndex`); rows of another model or none are embedded again first with
 * `reembed`, and left out of the search without it.
 */
export async function rebuildIndexFromRows(store: MemoryStore, options: { reembed: boolean }): Promise<RebuildCounts> {
  const { db, index, embedder } = store;
  await index.beginRebuild(await countRows(db.sql, 'memories'));
  const kept = new Set<string>();
  const counts: RebuildCounts = { indexed: 0, reembedded: 0, unembedded: 0 };
  let cursor: string | undefined;
  for (;;) {
    const page = await db.sql.query<StoredEmbedding & { id: string; content: string }>(
      `SELECT ${CATALOG_SELECT}, content, embedding, embedding_model FROM memories
        ${cursor ? 'WHERE id > $2::uuid' : ''} ORDER BY id LIMIT $1`,
      cursor ? [LOAD_PAGE, cursor] : [LOAD_PAGE],
    );
    if (page.length === 0) break;
    const stored = page.map((r) => storedVector(r, embedder.model));
    const stale = page.filter((_, i) => !stored[i]);
    const fresh = options.reembed && stale.length > 0 ? await store.reembed(stale) : new Map<string, Float32Array>();
    counts.reembedded += fresh.size;
    const items: IndexedItem[] = page.map((r, i) => {
      const vector = stored[i] ?? fresh.get(r.id) ?? null;
      if (vector) counts.indexed++;
      else counts.unembedded++;
      kept.add(r.id);
      return { row: catalogRow(r), vector };
    });
    await index.put(items);
    store.indexChanges += items.length;
    cursor = page.at(-1)?.id;
    if (page.length < LOAD_PAGE) break;
  }
  await index.endRebuild(kept);
  return counts;
}
