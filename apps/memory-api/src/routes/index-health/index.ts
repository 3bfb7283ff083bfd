import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import type { MemoryStore } from '../../memories/memory-store.ts';

const PAGE = 5000;

/**
 * Stored rows (the truth) against the in-process vector index (derived): ids, and for each memory
 * its status and namespace as the index's filters hold them, and its vector byte for byte with the
 * text hash it was embedded from. A replica whose index missed a forget or an edit shows here.
 */
async function verify(store: MemoryStore) {
  const { catalog } = store;
  let rows = 0;
  let embedded = 0;
  let missing = 0;
  let statusMismatches = 0;
  let vectorMismatches = 0;
  const stored = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await store.prisma.memory.findMany({
      select: { id: true, status: true, namespace: true, contentHash: true, embedding: true, embeddingModel: true },
      orderBy: { id: 'asc' },
      take: PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    for (const r of page) {
      rows++;
      const entry = catalog.entry(r.id);
      if (!entry || entry.active !== (r.status === 'active') || entry.namespace !== r.namespace) statusMismatches++;
      if (!r.embedding || r.embeddingModel !== store.embedder.model) continue;
      embedded++;
      stored.add(r.id);
      const vector = catalog.vector(r.id);
      if (!vector) {
        missing++;
        continue;
      }
      const same = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).equals(r.embedding);
      if (!same || catalog.contentHashOf(r.id) !== r.contentHash) vectorMismatches++;
    }
    cursor = page.at(-1)?.id;
    if (page.length < PAGE) break;
  }
  let extra = 0;
  for (const id of catalog.indexedIds()) if (!stored.has(id)) extra++;
  const vectors = catalog.size;
  return {
    rows,
    embedded_rows: embedded,
    unembedded_rows: rows - embedded,
    vectors,
    missing_from_index: missing,
    not_in_database: extra,
    status_mismatches: statusMismatches,
    vector_mismatches: vectorMismatches,
    change_feed_position: store.feed?.position ?? null,
    embedding_model: store.embedder.model,
    mismatch:
      missing > 0 ||
      extra > 0 ||
      statusMismatches > 0 ||
      vectorMismatches > 0 ||
      vectors !== embedded ||
      rows !== embedded,
  };
}

export const indexHealthRoutes: FastifyPluginAsync<MemoryContext> = async (app, { store }) => {
  app.post(
    '/verify',
    {
      config: {
        access: 'read',
        description: 'compares the vector index with stored rows; mismatch flag',
        responseType: 'VerifyReport',
      },
    },
    async () => verify(store),
  );
  app.post(
    '/repair',
    {
      config: {
        access: 'write',
        description: 'rebuilds the vector index from stored embeddings; stored data is untouched',
        responseType: 'RepairReport',
      },
    },
    async () => {
      const before = await verify(store);
      const started = performance.now();
      const rebuilt = await store.rebuildIndex({ reembed: false });
      const after = await verify(store);
      return {
        repaired: true,
        vectors: rebuilt.indexed,
        unembedded_rows: rebuilt.unembedded,
        took_ms: Math.round(performance.now() - started),
        before,
        after,
      };
    },
  );
};
