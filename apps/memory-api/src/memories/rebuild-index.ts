import { decodeEmbedding } from './embedding-codec.ts';
import type { IndexedItem } from './memory-index.ts';
import type { MemoryStore } from './memory-store.ts';

/** The columns the index keeps of a row (its filter fields and, to know its text, the content hash). */
export const CATALOG_COLUMNS = {
  id: true,
  namespace: true,
  status: true,
  createdAt: true,
  deprecatedAt: true,
  validUntil: true,
  tags: true,
  metadata: true,
  contentHash: true,
  memoryType: true,
  updatedAt: true,
} as const;

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
  const { prisma, index, embedder } = store;
  await index.beginRebuild(await prisma.memory.count());
  const kept = new Set<string>();
  const counts: RebuildCounts = { indexed: 0, reembedded: 0, unembedded: 0 };
  let cursor: string | undefined;
  for (;;) {
    const page = await prisma.memory.findMany({
      select: { ...CATALOG_COLUMNS, content: true, embedding: true, embeddingModel: true },
      orderBy: { id: 'asc' },
      take: LOAD_PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (page.length === 0) break;
    const stale = page.filter((r) => !r.embedding || r.embeddingModel !== embedder.model);
    const fresh = new Map<string, Float32Array>();
    if (options.reembed && stale.length > 0) {
      for (const [id, vector] of await store.reembed(stale)) fresh.set(id, vector);
      counts.reembedded += stale.length;
    }
    const items: IndexedItem[] = page.map((r) => {
      let vector = fresh.get(r.id) ?? null;
      if (!vector && r.embedding && r.embeddingModel === embedder.model) vector = decodeEmbedding(r.embedding);
      if (vector) counts.indexed++;
      else counts.unembedded++;
      kept.add(r.id);
      return { row: r, vector };
    });
    await index.put(items);
    store.indexChanges += items.length;
    cursor = page.at(-1)?.id;
    if (page.length < LOAD_PAGE) break;
  }
  await index.endRebuild(kept);
  return counts;
}
