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

/**
 * How many connections an HTTP service holds and how long it waits on each (slow or idle clients
 * would otherwise hold sockets for Node's defaults, 60-300 s, with no bound on their number).
 */
export function connectionEnv() {
  return {
    MAX_CONNECTIONS: env.int({
      description:
        'Most client connections held open at once; further ones are closed as they arrive (size it above the concurrency your load balancer or clients open)',
      default: 1024,
      min: 1,
      max: 1_000_000,
    }),
    HEADERS_TIMEOUT_MS: env.int({
      description: 'How long a client may take to send a request line and headers before its connection is closed',
      default: 10_000,
      min: 1_000,
      max: 600_000,
    }),
    REQUEST_TIMEOUT_MS: env.int({
      description:
        'How long a client may take to send a whole request, body included, before it is answered 408 and the connection closed',
      default: 120_000,
      min: 1_000,
      max: 3_600_000,
    }),
    KEEP_ALIVE_TIMEOUT_MS: env.int({
      description:
        'How long an idle keep-alive connection stays open; keep it above the idle timeout of a load balancer in front (often 60 s), or it may reuse a connection being closed',
      default: 65_000,
      min: 1_000,
      max: 600_000,
    }),
  } satisfies EnvSchema;
}

/** The values of connectionEnv, as createServer takes them. */
export interface ConnectionLimits {
  readonly MAX_CONNECTIONS: number;
  readonly HEADERS_TIMEOUT_MS: number;
  readonly REQUEST_TIMEOUT_MS: number;
  readonly KEEP_ALIVE_TIMEOUT_MS: number;
}
