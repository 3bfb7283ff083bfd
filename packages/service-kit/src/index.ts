export * from './config.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './logger.ts';
export * from './metrics.ts';
export * from './run.ts';
export * from './server-env.ts';
export * from './service.ts';
export type { Telemetry } from './telemetry.ts';
