import { BACKENDS, type Embedder, type EmbedPurpose, onnxOptions, openBackend } from '@trove/embeddings';
import type { Logger } from '@trove/service-kit';
import type { EmbedderConfig } from './config.ts';

/**
 * The backends this service runs: the in-process ones of @trove/embeddings (the models memory-api
 * runs) and `onnx` (a transformer model from a Hugging Face directory, which memory-api can also
 * run in process).
 */
export const EMBEDDER_BACKENDS = [...BACKENDS, 'onnx'] as const;
export type EmbedderBackendName = (typeof EMBEDDER_BACKENDS)[number];

/** The model a server serves, as GetModel describes it. */
export interface ServedModel extends Embedder {
  readonly backend: EmbedderBackendName;
  /** Where it runs: cpu, webgpu or cuda. */
  readonly device: string;
  /** True when every vector has unit length. */
  readonly normalized: boolean;
  /** Texts cut at the model's token limit since start (onnx only). */
  readonly truncated?: number;
  /** onnx: the texts with the prefix of this purpose before each, and embedding texts that already carry it. */
  prefixed?(texts: readonly string[], purpose: EmbedPurpose): readonly string[];
  embedPrefixed?(texts: readonly string[]): Promise<Float32Array[]>;
}

export async function openServedModel(config: EmbedderConfig, logger: Logger): Promise<ServedModel> {
  if (config.EMBEDDER_BACKEND === 'onnx') {
    // Loaded only when asked for: onnxruntime's native library is large and glove needs none of it.
    const { OnnxEmbedder } = await import('@trove/embeddings/onnx');
    return OnnxEmbedder.open(onnxOptions(config, 'EMBEDDER_BACKEND', (message) => logger.info(message)));
  }
  return openBackend({ backend: config.EMBEDDER_BACKEND, cacheDir: config.EMBEDDINGS_CACHE_DIR });
}
