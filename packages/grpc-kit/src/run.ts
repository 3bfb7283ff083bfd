import {
  createServer,
  env,
  type Logger,
  type Readiness,
  type ShellConfig,
  serverEnv,
  serviceKit,
  startProcess,
} from '@trove/service-kit';
import type { FastifyInstance } from 'fastify';
import { GrpcServer } from './server.ts';

/** The variables every gRPC service reads: the service kit's (PORT is the HTTP side port) and GRPC_PORT. */
export function grpcServerEnv(defaults: { grpcPort: number; port: number; serviceName: string }) {
  return {
    ...serverEnv({ port: defaults.port, serviceName: defaults.serviceName }),
    GRPC_PORT: env.port({ description: 'gRPC port', default: defaults.grpcPort }),
  };
}

export interface GrpcShellConfig extends ShellConfig {
  readonly GRPC_PORT: number;
}

export interface GrpcServiceParts {
  grpc: GrpcServer;
  /** The side port's Fastify app (/livez, /readyz, /metrics): add readiness checks or routes here. */
  http: FastifyInstance;
  readiness: Readiness;
}

export interface GrpcRunOptions<C extends GrpcShellConfig> {
  service: string;
  version: string;
  readConfig: () => C;
  /** Requests larger than this many bytes get INVALID_ARGUMENT naming the limit. */
  maxRequestBytes?: (config: C) => number;
  protoFiles?: { root: string; files: string[] };
  /**
   * Adds the services to parts.grpc and readiness checks to parts.readiness. The returned close runs
   * once in-flight calls have finished on shutdown.
   */
  build: (config: C, logger: Logger, parts: GrpcServiceParts) => Promise<{ close?: () => Promise<void> } | undefined>;
}

export interface RunningGrpcService extends GrpcServiceParts {
  grpcPort: number;
  httpPort: number;
  /** Drains and closes everything, as SIGTERM does; resolves to whether in-flight calls finished in time. */
  stop(): Promise<boolean>;
}

/**
 * The process shell of a gRPC service: validate config, start tracing if asked, build, serve gRPC
 * on GRPC_PORT and /livez, /readyz, /metrics on PORT, and on SIGTERM or SIGINT report not ready,
 * let in-flight calls finish, close dependencies and exit 0.
 */
export async function runGrpcService<C extends GrpcShellConfig>(
  options: GrpcRunOptions<C>,
): Promise<RunningGrpcService> {
  const { config, logger, telemetry } = await startProcess(options);

  const http = createServer({ logger });
  await http.register(serviceKit, { service: options.service });
  await http.after();
  const grpc = new GrpcServer({
    logger,
    registry: http.metricsRegistry,
    maxRequestBytes: options.maxRequestBytes?.(config),
    protoFiles: options.protoFiles,
  });
  const parts: GrpcServiceParts = { grpc, http, readiness: http.readiness };
  let built: { close?: () => Promise<void> } | undefined;
  let grpcPort: number;
  try {
    built = await options.build(config, logger, parts);
    grpcPort = await grpc.listen(config.HOST, config.GRPC_PORT);
    await http.listen({ host: config.HOST, port: config.PORT });
  } catch (err) {
    logger.fatal({ err }, 'could not start');
    await telemetry?.shutdown().catch(() => {});
    process.exit(1);
  }
  grpc.setServing(true);
  const address = http.server.address();
  const httpPort = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ grpcPort, httpPort }, 'serving');

  let stopping: Promise<boolean> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      http.readiness.startDraining();
      const finished = await grpc.drain(config.SHUTDOWN_TIMEOUT_MS);
      await built?.close?.();
      await http.close();
      await telemetry?.shutdown();
      return finished;
    })();
    return stopping;
  };
  const onSignal = async (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down: finishing in-flight calls');
    try {
      const finished = await stop();
      logger.info('stopped');
      logger.flush();
      process.exit(finished ? 0 : 1);
    } catch (err) {
      logger.error({ err }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { ...parts, grpcPort, httpPort, stop };
}
