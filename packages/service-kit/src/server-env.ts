import { type EnvSchema, env } from './config.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The variables every HTTP service reads: where it listens, how it logs, how it stops, where it traces. */
export function serverEnv(defaults: { port: number; serviceName: string }) {
  return {
    HOST: env.string({ description: 'Address to listen on', default: '0.0.0.0', hint: 'an IP address or host name' }),
    PORT: env.port({ description: 'HTTP port', default: defaults.port }),
    LOG_LEVEL: env.oneOf(LOG_LEVELS, { description: 'Lowest log level written', default: 'info' }),
    LOG_FORMAT: env.oneOf(['auto', 'json', 'pretty'] as const, {
      description: 'Log format; `auto` is pretty on a terminal and JSON otherwise',
      default: 'auto',
    }),
    SHUTDOWN_TIMEOUT_MS: env.int({
      description: 'On SIGTERM, how long in-flight requests may take to finish before the process exits anyway',
      default: 10_000,
      min: 100,
      max: 600_000,
    }),
    OTEL_EXPORTER_OTLP_ENDPOINT: env.url({
      description: 'OTLP/HTTP collector base URL; tracing starts only when set',
      protocols: ['http:', 'https:'],
    }),
    OTEL_SERVICE_NAME: env.string({
      description: 'Service name on exported traces',
      default: defaults.serviceName,
      pattern: /^[\w.-]{1,64}$/,
      hint: 'letters, digits, dot, dash or underscore (1-64)',
    }),
  } satisfies EnvSchema;
}
