import { type Embedder, GloveEmbedder, HashEmbedder } from '@trove/embeddings';
import type { MemoryConfig } from './config.ts';

/** The configured embedder. A gRPC client of the embedder service will be a third choice here. */
export async function openEmbedder(config: MemoryConfig): Promise<Embedder> {
  if (config.EMBEDDER === 'hash') return new HashEmbedder(64);
  return GloveEmbedder.open({ cacheDir: config.EMBEDDINGS_CACHE_DIR });
}
