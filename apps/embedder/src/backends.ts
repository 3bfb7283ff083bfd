import { fileURLToPath } from 'node:url';
import { BACKENDS, type Embedder, onnxOptions, openBackend } from '@trove/embeddings';
import type { Logger } from '@trove/service-kit';
import type { EmbedderConfig } from './config.ts';

/**
 * The backends this service runs: the in-process ones of @trove/embeddings (the models memory-api
 * runs), `onnx` (a transformer model from a Hugging Face directory) and `tfjs`, which lives here
 * so that TensorFlow.js stays out of memory-api's dependencies.
 */
export const EMBEDDER_BACKENDS = [...BACKENDS, 'onnx', 'tfjs'] as const;
export type EmbedderBackendName = (typeof EMBEDDER_BACKENDS)[number];

/** The model a server serves, as GetModel describes it. */
export interface ServedModel extends Embedder {
  readonly backend: EmbedderBackendName;
  /** Where it runs: cpu, wasm, webgpu or cuda. */
  readonly device: string;
  /** True when every vector has unit length. */
  readonly normalized: boolean;
  /** Texts cut at the model's token limit since start (onnx only). */
  readonly truncated?: number;
}

/** The TF.js model shipped with the app: GloVe over its 10,000 most frequent words. */
export const SHIPPED_TFJS_MODEL = fileURLToPath(new URL('../models/glove-sg-100d-top10k', import.meta.url));

export async function openServedModel(config: EmbedderConfig, logger: Logger): Promise<ServedModel> {
  if (config.EMBEDDER_BACKEND === 'onnx') {
    // Loaded only when asked for: onnxruntime's native library is large and glove needs none of it.
    const { OnnxEmbedder } = await import('@trove/embeddings/onnx');
    return OnnxEmbedder.open(onnxOptions(config, 'EMBEDDER_BACKEND', (message) => logger.info(message)));
  }
  if (config.EMBEDDER_BACKEND !== 'tfjs') {
    return openBackend({ backend: config.EMBEDDER_BACKEND, cacheDir: config.EMBEDDINGS_CACHE_DIR });
  }
  // Loaded only when asked for: TensorFlow.js and Dawn are large, and glove or hash need neither.
  const { TfjsEmbedder } = await import('./tfjs/tfjs-embedder.ts');
  return TfjsEmbedder.open({
    dir: config.TFJS_MODEL_DIR ?? SHIPPED_TFJS_MODEL,
    device: config.TFJS_DEVICE,
    log: logger,
  });
}
