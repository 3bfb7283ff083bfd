import { availableParallelism } from 'node:os';
import { type ConfigOf, env, loadConfig, serverEnv } from '@trove/service-kit';

/** Every environment variable vectorize-api reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...serverEnv({ port: 8768, serviceName: 'vectorize-api' }),
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
  TRACE_WORKERS: env.int({
    description: 'Tracing worker threads; 0 means one per CPU core less one (at least one)',
    default: 0,
    min: 0,
    max: 256,
  }),
  TRACE_QUEUE_LENGTH: env.int({
    description:
      'Tracing jobs allowed to wait for a free worker; when the queue is full, requests get 503 with Retry-After',
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
