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

/** Starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set; call before building the app. */
export async function startTracingIfConfigured(config: ShellConfig, version: string): Promise<Telemetry | undefined> {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  // Loaded only when asked for: the SDK is heavy and most runs do not trace.
  const { startTelemetry } = await import('./telemetry.ts');
  return startTelemetry({
    endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    serviceName: config.OTEL_SERVICE_NAME,
    version,
  });
}

/** sysexits' EX_CONFIG: the process could not start because of its configuration. */
export const EXIT_CONFIG = 78;

/**
 * What every process does first: read the config (a bad value exits EX_CONFIG with one line), make
 * the logger, exit on a crash, start tracing when asked.
 */
export async function startProcess<C extends ShellConfig>(options: {
  service: string;
  version: string;
  readConfig: () => C;
}): Promise<{ config: C; logger: Logger; telemetry: Telemetry | undefined }> {
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
  const telemetry = await startTracingIfConfigured(config, options.version);
  return { config, logger, telemetry };
}

/**
 * The process shell of every service: validate config, start tracing if asked, build, listen, and
 * on SIGTERM or SIGINT drain in-flight requests, close dependencies and exit 0.
 */
export async function runService<C extends ShellConfig>(options: RunOptions<C>): Promise<FastifyInstance> {
  const { config, logger, telemetry } = await startProcess(options);

  let app: FastifyInstance;
  try {
    app = await options.build(config, logger);
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (err) {
    // One line that says why, e.g. "could not start: Redis at redis://host:6379 unreachable: ...".
    logger.fatal({ err }, `could not start: ${err instanceof Error ? err.message : String(err)}`);
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
