import { reloadDocumentIndex } from '../documents/document-index.ts';
import { type StoredEmbedding, storedVector } from './embedding-codec.ts';
import type { MemoryStore } from './memory-store.ts';
import { reembedAll } from './model-identity.ts';

const PAGE = 5000;

/** Whether two vectors are the same, allowing for a store that keeps them as normalised floats. */
function sameVector(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (Math.abs((a[i] as number) - (b[i] as number)) > 1e-5) return false;
  return true;
}

/**
 * Stored rows (the truth) against the vector index (derived): ids, and for each embedded memory
 * its status and namespace as the index's filters hold them, and its vector with the text hash it
 * was embedded from. A replica whose index missed a forget or an edit shows here.
 */
export async function verifyIndex(store: MemoryStore) {
  const { index } = store;
  let rows = 0;
  let embedded = 0;
  let missing = 0;
  let statusMismatches = 0;
  let vectorMismatches = 0;
  const stored = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await store.db.sql.query<
      StoredEmbedding & Record<'id' | 'status' | 'namespace' | 'content_hash', string>
    >(
      `SELECT id::text AS id, status, namespace, content_hash, embedding, embedding_model FROM memories
        WHERE $2::uuid IS NULL OR id > $2::uuid ORDER BY id LIMIT $1`,
      [PAGE, cursor ?? null],
    );
    rows += page.length;
    const embeddedRows = page.flatMap((r) => {
      const vector = storedVector(r, store.embedder.model);
      return vector ? [{ ...r, vector }] : [];
    });
    const held = await index.vectors(embeddedRows.map((r) => r.id));
    for (const r of embeddedRows) {
      embedded++;
      stored.add(r.id);
      const m = held.get(r.id);
      if (!m) {
        missing++;
        continue;
      }
      if (m.entry.active !== (r.status === 'active') || m.entry.namespace !== r.namespace) statusMismatches++;
      if (!sameVector(m.vector, r.vector) || m.contentHash !== r.content_hash) vectorMismatches++;
    }
    cursor = page.at(-1)?.id;
    if (page.length < PAGE) break;
  }
  let extra = 0;
  for await (const ids of index.ids()) for (const id of ids) if (!stored.has(id)) extra++;
  const vectors = await index.count();
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
    index: index.description,
    mismatch:
      missing > 0 ||
      extra > 0 ||
      statusMismatches > 0 ||
      vectorMismatches > 0 ||
      vectors !== embedded ||
      rows !== embedded,
  };
}

/**
 * Rebuilds the vector index from stored embeddings; with `reembed`, first embeds again (with the
 * configured model) every memory and document whose vector is missing or another model made.
 * Answers the verification before and after.
 */
export async function repairIndex(store: MemoryStore, reembed: boolean) {
  const before = await verifyIndex(store);
  const started = performance.now();
  const reembedded = reembed ? await reembedAll(store) : { memories: 0, documents: 0 };
  const rebuilt = await store.rebuildIndex({ reembed: false });
  if (reembed) await reloadDocumentIndex(store);
  const after = await verifyIndex(store);
  return {
    repaired: true,
    vectors: rebuilt.indexed,
    reembedded_memories: reembedded.memories,
    reembedded_documents: reembedded.documents,
    unembedded_rows: rebuilt.unembedded,
    took_ms: Math.round(performance.now() - started),
    before,
    after,
  };
}
