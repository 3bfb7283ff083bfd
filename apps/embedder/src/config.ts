import { onnxEnv } from '@trove/embeddings';
import { grpcServerEnv } from '@trove/grpc-kit';
import { type ConfigOf, env, loadConfig } from '@trove/service-kit';
import { EMBEDDER_BACKENDS } from './backends.ts';

/** Every environment variable the embedder reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...grpcServerEnv({ grpcPort: 50051, port: 8770, serviceName: 'embedder' }),
  EMBEDDER_BACKEND: env.oneOf(EMBEDDER_BACKENDS, {
    description:
      '`glove`: the GloVe sentence embedder memory-api runs in process (100 dimensions, CPU); `onnx`: a transformer sentence-embedding model from `ONNX_MODEL_DIR` on `ONNX_DEVICE`; `hash`: deterministic hashing, for tests only',
    default: 'glove',
  }),
  ...onnxEnv(),
  EMBEDDINGS_CACHE_DIR: env.string({
    description: 'Where the compact GloVe vector file is built on first start and loaded afterwards',
    default: './data/cache',
    hint: 'a directory path',
  }),
  BATCH_WINDOW_MS: env.int({
    description:
      'Dynamic batching: how long the first waiting call waits for others to join its batch (skipped while callers come one at a time); 0 runs each call as soon as the model is free',
    default: 2,
    min: 0,
    max: 1_000,
  }),
  MAX_BATCH: env.int({
    description: 'Most texts one model run takes; calls are never split, so a batch holds whole calls',
    default: 256,
    min: 1,
    max: 100_000,
  }),
  QUEUE_LENGTH: env.int({
    description: 'Calls allowed to wait for the model; when full, Embed answers RESOURCE_EXHAUSTED at once',
    default: 1_024,
    min: 1,
    max: 1_000_000,
  }),
  MAX_TEXTS_PER_CALL: env.int({
    description: 'Most texts one Embed call may carry (INVALID_ARGUMENT beyond)',
    default: 256,
    min: 1,
    max: 100_000,
  }),
  MAX_TEXT_LENGTH: env.int({
    description: 'Most characters one text may have (INVALID_ARGUMENT beyond)',
    default: 16_384,
    min: 1,
    max: 10_000_000,
  }),
  MAX_MESSAGE_BYTES: env.int({
    description: 'Largest request message in bytes (INVALID_ARGUMENT beyond)',
    default: 4 * 1024 * 1024,
    min: 1_024,
    max: 256 * 1024 * 1024,
  }),
};

export type EmbedderConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): EmbedderConfig {
  return loadConfig(configSchema, source);
}
