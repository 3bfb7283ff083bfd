import { type Embedder, GloveEmbedder, GrpcEmbedder, HashEmbedder } from '@trove/embeddings';
import type { MemoryConfig } from './config.ts';

/** The configured embedder: the embedder service over gRPC when EMBEDDER_URL is set, else in process. */
export async function openEmbedder(config: MemoryConfig): Promise<Embedder> {
  if (config.EMBEDDER_URL)
    return GrpcEmbedder.connect({ target: config.EMBEDDER_URL, deadlineMs: config.EMBEDDER_DEADLINE_MS });
  if (config.EMBEDDER === 'hash') return new HashEmbedder(64);
  return GloveEmbedder.open({ cacheDir: config.EMBEDDINGS_CACHE_DIR });
}
