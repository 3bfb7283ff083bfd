import { embedDocuments } from '../documents/document-index.ts';
import type { MemoryStore } from './memory-store.ts';

/** How many rows one re-embedding step embeds and commits (a stopped run resumes after the last). */
export const REEMBED_BATCH = 256;

export interface StoredModel {
  model: string;
  memories: number;
  documents: number;
}

/** Models other than `model` that made stored vectors, with how many rows each. */
export async function otherStoredModels(store: MemoryStore, model: string): Promise<StoredModel[]> {
  const rows = await store.db.sql.query<{ model: string; memories: number; documents: number }>(
    `SELECT model, sum(memories)::int AS memories, sum(documents)::int AS documents FROM (
       SELECT embedding_model AS model, count(*) AS memories, 0 AS documents FROM memories
        WHERE embedding_model IS NOT NULL AND embedding_model <> $1 GROUP BY 1
       UNION ALL
       SELECT embedding_model, 0, count(*) FROM documents
        WHERE embedding_model IS NOT NULL AND embedding_model <> $1 GROUP BY 1
     ) t GROUP BY model ORDER BY model`,
    [model],
  );
  return rows.map((r) => ({ model: r.model, memories: Number(r.memories), documents: Number(r.documents) }));
}

/**
 * Refuses to serve vectors of two models side by side: similarities between them mean nothing,
 * and a silent re-embedding at start would take a large store offline for hours.
 */
export async function checkStoredModel(store: MemoryStore): Promise<void> {
  const model = store.embedder.model;
  const others = await otherStoredModels(store, model);
  if (others.length === 0) return;
  const made = others.map((o) => `${o.memories} memories and ${o.documents} documents by ${o.model}`).join(', ');
  throw new Error(
    `stored vectors were made by another embedding model (${made}) than the configured one (${model} with ${store.embedder.dimensions} dimensions): re-embed them with \`npm run reembed -w apps/memory-api\` (or the migrate image's \`memory-api-reembed\`) under the new settings, or start with the old model's settings`,
  );
}

export interface ReembedProgress {
  memories: number;
  documents: number;
}

/** A row to embed again (memories have no title: only documents read one). */
type Row = { id: string; title: string; content: string };

/**
 * Embeds again, with the configured model, every memory and document whose vector another model
 * made (or that has none), a batch at a time, each batch committed: stopped at any point, a rerun
 * continues where it was. Stored vectors change through the same columns the change log watches,
 * so running replicas' indexes follow.
 */
export async function reembedAll(
  store: MemoryStore,
  onProgress: (done: ReembedProgress) => void = () => {},
): Promise<ReembedProgress> {
  const done = { memories: 0, documents: 0 };
  // One pass per table: a batch of the rows whose vector is stale or missing, until none is left.
  const pass = async (table: keyof ReembedProgress, columns: string, embed: (rows: Row[]) => Promise<unknown>) => {
    for (;;) {
      const rows = await store.db.sql.query<Row>(
        `SELECT id::text AS id, ${columns} FROM ${table}
          WHERE embedding_model IS DISTINCT FROM $1 OR embedding IS NULL ORDER BY id LIMIT $2`,
        [store.embedder.model, REEMBED_BATCH],
      );
      if (rows.length === 0) return;
      await embed(rows);
      done[table] += rows.length;
      onProgress(done);
    }
  };
  await pass('memories', 'content', (rows) => store.reembed(rows));
  await pass('documents', 'title, content', (rows) => embedDocuments(store, rows));
  return done;
}
