import { availableParallelism } from 'node:os';
import { grpcServerEnv } from '@trove/grpc-kit';
import { type ConfigOf, env, loadConfig } from '@trove/service-kit';

/** Every environment variable vectorizer-worker reads. Nothing else in the app touches process.env. */
export const configSchema = {
  ...grpcServerEnv({ grpcPort: 50052, port: 8771, serviceName: 'vectorizer-worker' }),
  // A trace of a large photo takes tens of seconds; a rollout should let it finish, not cut it off.
  SHUTDOWN_TIMEOUT_MS: env.int({
    description:
      'On SIGTERM, how long running and queued jobs may take to finish before they are cancelled and the process exits',
    default: 120_000,
    min: 100,
    max: 600_000,
  }),
  TRACE_THREADS: env.int({
    description:
      "Tracing worker threads; 0 means one per CPU core (set it to the pod's CPU limit: Node may see the whole node's cores)",
    default: 0,
    min: 0,
    max: 256,
  }),
  QUEUE_LENGTH: env.int({
    description:
      'Jobs allowed to wait for a free thread; when the queue is full, calls are answered RESOURCE_EXHAUSTED at once (vectorize-api then tries another worker)',
    default: 16,
    min: 0,
    max: 10_000,
  }),
  MAX_IMAGE_PIXELS: env.int({
    description:
      "Largest image a Trace call may carry, in pixels (INVALID_ARGUMENT beyond); keep it at least vectorize-api's MAX_IMAGE_PIXELS",
    default: 25_000_000,
    min: 1,
    max: 268_402_689,
  }),
  MAX_SVG_BYTES: env.int({
    description:
      "Largest SVG an Optimize call may carry, in bytes (INVALID_ARGUMENT beyond); keep it at least vectorize-api's MAX_UPLOAD_BYTES",
    default: 20 * 1024 * 1024,
    min: 1024,
    max: 512 * 1024 * 1024,
  }),
};

export type WorkerConfig = ConfigOf<typeof configSchema>;

export function readConfig(source: Record<string, string | undefined> = process.env): WorkerConfig {
  return loadConfig(configSchema, source);
}

/** The number of tracing threads a config asks for, resolved against this machine. */
export function threadCount(config: WorkerConfig): number {
  return config.TRACE_THREADS > 0 ? config.TRACE_THREADS : availableParallelism();
}

/**
 * Largest gRPC request accepted: a Trace call carries width × height × 4 bytes of pixels, an
 * Optimize call one SVG; 64 KiB more covers the options and framing.
 */
export function maxRequestBytes(config: WorkerConfig): number {
  return Math.max(config.MAX_IMAGE_PIXELS * 4, config.MAX_SVG_BYTES) + 64 * 1024;
}
