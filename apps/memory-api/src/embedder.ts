import { type Embedder, GloveEmbedder, GrpcEmbedder, HashEmbedder, onnxOptions } from '@trove/embeddings';
import type { MemoryConfig } from './config.ts';

/** The configured embedder: the embedder service over gRPC when EMBEDDER_URL is set, else in process. */
export async function openEmbedder(config: MemoryConfig, log?: (message: string) => void): Promise<Embedder> {
  if (config.EMBEDDER_URL)
    return GrpcEmbedder.connect({ target: config.EMBEDDER_URL, deadlineMs: config.EMBEDDER_DEADLINE_MS });
  if (config.EMBEDDER === 'hash') return new HashEmbedder(64);
  if (config.EMBEDDER === 'onnx') {
    // Imported only when configured: onnxruntime's native library is not loaded for GloVe.
    const { OnnxEmbedder } = await import('@trove/embeddings/onnx');
    return OnnxEmbedder.open(onnxOptions(config, 'EMBEDDER', log));
  }
  return GloveEmbedder.open({ cacheDir: config.EMBEDDINGS_CACHE_DIR });
}
