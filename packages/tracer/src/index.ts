export * from './errors.ts';
export { writeEps } from './output/eps.ts';
export {
  DEFAULT_MULTIPASS_ITERATIONS,
  MAX_MULTIPASS_ITERATIONS,
  OPTIMIZE_PRESETS,
  type OptimizedSvg,
  type OptimizePreset,
  type OptimizeSettings,
  optimizeSvg,
} from './output/optimize-svg.ts';
export { writePdf } from './output/pdf.ts';
export { type PackedPaths, packPaths, unpackPaths } from './packed-paths.ts';
export { createPoolMetrics, type PoolMetrics } from './pool/pool-metrics.ts';
export { warmUp } from './pool/warm-up.ts';
export { type DropReason, type PoolObserver, WorkerPool, type WorkerPoolOptions } from './pool/worker-pool.ts';
export {
  type RemoteLogger,
  type RemoteObserver,
  RemoteTracer,
  type RemoteTracerOptions,
  type RetryReason,
} from './remote/remote-tracer.ts';
export * from './remote/wire.ts';
export { parseTarget, TARGET_PATTERN } from './remote/worker-set.ts';
export type * from './tracer.ts';
