import { join } from 'node:path';
import { type Embedder, QdrantVectorStore, type VectorStore } from '@trove/embeddings';
import type { MemoryConfig } from '../config.ts';
import type { MemoryDatabase } from '../db.ts';
import { CatalogIndex, type MemoryIndex } from './memory-index.ts';
import { type RowLoader, SharedIndex } from './shared-index.ts';
import { VectorCatalog } from './vector-catalog.ts';

/**
 * The configured vector index: Qdrant shared by every replica when QDRANT_URL is set, else in
 * process. `shared` hands in another shared store (tests share one EmbeddedVectorStore between
 * replicas in one process, to run the shared path where no Qdrant server is available).
 */
export function openIndex(
  config: MemoryConfig,
  embedder: Embedder,
  loadRows: RowLoader,
  shared?: VectorStore,
): MemoryIndex {
  if (shared) return new SharedIndex(shared, `${config.QDRANT_COLLECTION_PREFIX}_${embedder.model}`, loadRows);
  if (!config.QDRANT_URL) {
    // On the embedded database in a directory, the graph is kept beside it across restarts.
    const keep = !config.DATABASE_URL && config.DATA_DIR !== 'memory://';
    const saved = keep ? { file: join(config.DATA_DIR, 'vector-index.hnsw'), model: embedder.model } : undefined;
    return new CatalogIndex(new VectorCatalog(embedder.dimensions), saved);
  }
  const store = new QdrantVectorStore({
    url: config.QDRANT_URL,
    apiKey: config.QDRANT_API_KEY,
    model: embedder.model,
    dimensions: embedder.dimensions,
    prefix: config.QDRANT_COLLECTION_PREFIX,
  });
  return new SharedIndex(store, store.collection, loadRows);
}

/** Where a shared index stands in the change log, kept in the database beside the log. */
export function sharedIndexPosition(db: MemoryDatabase, collection: string) {
  return {
    async load(): Promise<number | null> {
      const [row] = await db.sql.query<{ position: string }>(
        'SELECT position::text AS position FROM shared_vector_index WHERE collection = $1',
        [collection],
      );
      return row ? Number(row.position) : null;
    },
    async store(position: number): Promise<void> {
      await db.sql.query(
        `INSERT INTO shared_vector_index (collection, position, updated_at) VALUES ($1, $2::bigint, now())
         ON CONFLICT (collection) DO UPDATE SET position = GREATEST(shared_vector_index.position, EXCLUDED.position), updated_at = now()`,
        [collection, position],
      );
    },
  };
}
