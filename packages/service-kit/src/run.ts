import type { FastifyInstance } from 'fastify';
import { ConfigError } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import type { LogLevel } from './server-env.ts';
import type { Telemetry } from './telemetry.ts';

/** The part of every app's config that the process shell itself needs. */
export interface ShellConfig {
  readonly HOST: string;
  readonly PORT: number;
  readonly LOG_LEVEL: LogLevel;
  readonly LOG_FORMAT: 'auto' | 'json' | 'pretty';
  readonly SHUTDOWN_TIMEOUT_MS: number;
  readonly OTEL_EXPORTER_OTLP_ENDPOINT: string | undefined;
  readonly OTEL_SERVICE_NAME: string;
}

export interface RunOptions<C extends ShellConfig> {
  service: string;
  version: string;
  /** Reads and validates the environment; throws ConfigError on a bad value. */
  readConfig: () => C;
  /** Builds the app (opening its database, applying migrations...); called after tracing starts. */
  build: (config: C, logger: Logger) => Promise<FastifyInstance>;
}

/** sysexits' EX_CONFIG: the process could not start because of its configuration. */
export const EXIT_CONFIG = 78;

/**
 * The process shell of every service: validate config, start tracing if asked, build, listen, and
 * on SIGTERM or SIGINT drain in-flight requests, close dependencies and exit 0.
 */
export async function runService<C extends ShellConfig>(options: RunOptions<C>): Promise<FastifyInstance> {
  let config: C;
  try {
    config = options.readConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${options.service}: ${err.message}\n`);
    process.exit(EXIT_CONFIG);
  }

  const logger = createLogger({ service: options.service, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  const exitOnCrash = (kind: string) => (err: unknown) => {
    logger.fatal({ err }, kind);
    process.exit(1);
  };
  process.on('uncaughtException', exitOnCrash('uncaught exception'));
  process.on('unhandledRejection', exitOnCrash('unhandled rejection'));

  let telemetry: Telemetry | undefined;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) {
    // Loaded only when asked for: the SDK is heavy and most runs do not trace.
    const { startTelemetry } = await import('./telemetry.ts');
    telemetry = startTelemetry({
      endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
      serviceName: config.OTEL_SERVICE_NAME,
      version: options.version,
    });
  }

  let app: FastifyInstance;
  try {
    app = await options.build(config, logger);
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (err) {
    logger.fatal({ err }, 'could not start');
    await telemetry?.shutdown().catch(() => {});
    process.exit(1);
  }

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown timed out; exiting with requests unfinished');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    try {
      await app.close();
      await telemetry?.shutdown();
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return app;
}
