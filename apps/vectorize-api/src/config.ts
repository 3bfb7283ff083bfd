import { availableParallelism } from 'node:os';
import { type ConfigOf, connectionEnv, env, loadConfig, serverEnv } from '@trove/service-kit';
import { TARGET_PATTERN } from '@trove/tracer';

/** Every environment variable vectorize-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8768, serviceName: 'vectorize-api' }),
  ...connectionEnv(),
  MAX_UPLOAD_BYTES: env.int({
    description: 'Largest uploaded file (image or SVG) in bytes; larger uploads are answered 413',
    default: 20 * 1024 * 1024,
    min: 1024,
    max: 512 * 1024 * 1024,
  }),
  MAX_IMAGE_PIXELS: env.int({
    description:
      'Largest image accepted, in pixels (width × height read from the file header before decoding); larger images are answered 413',
    default: 25_000_000,
    min: 1,
    max: 268_402_689,
  }),
  VECTORIZER_WORKER_URL: env.optionalString({
    description:
      'gRPC target of vectorizer-worker, e.g. `dns:///vectorizer-worker:50052` (every address the name resolves to, round robin, resolved again every 2 s) or a comma-separated list of host:port; unset traces in this process on TRACE_WORKERS threads',
    pattern: TARGET_PATTERN,
    hint: 'dns:///host:port, host:port, or a comma-separated list of them',
  }),
  TRACE_TIMEOUT_MS: env.int({
    description:
      "Longest a request's tracing or optimisation may take, counted from the request's arrival (upload and queue included); then the job is stopped and the request answered 503",
    default: 120_000,
    min: 100,
    max: 3_600_000,
  }),
  TRACE_WORKERS: env.int({
    description:
      'Tracing worker threads in this process (without VECTORIZER_WORKER_URL); 0 means one per CPU core less one (at least one)',
    default: 0,
    min: 0,
    max: 256,
  }),
  TRACE_QUEUE_LENGTH: env.int({
    description:
      'Tracing jobs allowed to wait for a free thread in this process (without VECTORIZER_WORKER_URL); when the queue is full, requests get 503 with Retry-After',
    default: 16,
    min: 0,
    max: 10_000,
  }),
};

export type VectorizeConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): VectorizeConfig {
  return loadConfig(configSchema, source);
}

/** The number of tracing threads a config asks for, resolved against this machine. */
export function traceWorkerCount(config: VectorizeConfig): number {
  return config.TRACE_WORKERS > 0 ? config.TRACE_WORKERS : Math.max(1, availableParallelism() - 1);
}
