import type { FastifyPluginAsync } from 'fastify';
import type { MemoryContext } from '../../context.ts';
import type { MemoryStore } from '../../memories/memory-store.ts';

/** Stored embeddings (the truth) against the in-process vector index (derived). */
async function verify(store: MemoryStore) {
  const rows = await store.prisma.memory.count();
  const embedded = await store.prisma.memory.findMany({
    where: { embedding: { not: null }, embeddingModel: store.embedder.model },
    select: { id: true },
  });
  const stored = new Set(embedded.map((r) => r.id));
  let missing = 0;
  for (const id of stored) if (!store.catalog.hasVector(id)) missing++;
  let extra = 0;
  for (const id of store.catalog.indexedIds()) if (!stored.has(id)) extra++;
  const vectors = store.catalog.size;
  return {
    rows,
    embedded_rows: stored.size,
    unembedded_rows: rows - stored.size,
    vectors,
    missing_from_index: missing,
    not_in_database: extra,
    embedding_model: store.embedder.model,
    mismatch: missing > 0 || extra > 0 || vectors !== stored.size || rows !== stored.size,
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
