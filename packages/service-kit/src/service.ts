import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import fp from 'fastify-plugin';
import { handleError, handleNotFound } from './errors.ts';
import { PROBE_PATHS, Readiness, type ReadinessCheck, registerHealthRoutes } from './health.ts';
import type { Logger } from './logger.ts';
import { createRegistry, instrumentHttp, type Registry, registerMetricsRoute } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
    metricsRegistry: Registry;
  }
}

const INCOMING_ID = /^[\w.:-]{1,128}$/;

export interface ServerOptions {
  logger: Logger;
  /** Largest request body accepted by the default parsers, in bytes. */
  bodyLimit?: number;
  /** Dependencies (database, Redis...) closed once the server has drained and closed. */
  closeWith?: { close(): Promise<void> }[];
  /** How long a plugin may take to start, in ms (Fastify's default 10 s); 0 waits as long as it takes. */
  pluginTimeout?: number;
}

/**
 * The Fastify instance every app runs in. Connections are drained on close: requests already
 * received are answered, idle keep-alive sockets are closed, new connections are refused.
 */
export function createServer(options: ServerOptions): FastifyInstance {
  const server = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    ...(options.pluginTimeout === undefined ? {} : { pluginTimeout: options.pluginTimeout }),
    // A caller's request id is kept when it is well-formed, so one id follows a call across services.
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    },
    logController: new LogController({
      disableRequestLogging: (req: { url?: string }) => PROBE_PATHS.test(req.url ?? ''),
    }),
    forceCloseConnections: 'idle',
    // Requests that arrive on an open connection while draining are still served, not refused.
    return503OnClosing: false,
  }) as unknown as FastifyInstance;
  const dependencies = options.closeWith ?? [];
  if (dependencies.length > 0) {
    server.addHook('onClose', async () => {
      await Promise.allSettled(dependencies.map((d) => d.close()));
    });
  }
  return server;
}

export interface ServiceKitOptions {
  service: string;
  /** Dependencies that must answer before the app is ready. */
  checks?: Record<string, ReadinessCheck>;
  /** Where Prometheus text is served; false to serve it yourself. */
  metricsPath?: string | false;
}

/**
 * What every app gets: request ids echoed back, one error handler, metrics by route template,
 * liveness and readiness. Registered by each app's plugin before its routes.
 */
export const serviceKit = fp<ServiceKitOptions>(
  async (app, options) => {
    const registry = createRegistry(options.service);
    const readiness = new Readiness();
    for (const [name, check] of Object.entries(options.checks ?? {})) readiness.add(name, check);
    app.decorate('metricsRegistry', registry);
    app.decorate('readiness', readiness);

    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    app.addHook('preClose', async () => readiness.startDraining());
    app.setErrorHandler(handleError);
    app.setNotFoundHandler(handleNotFound);
    instrumentHttp(app, registry);
    if (options.metricsPath !== false) registerMetricsRoute(app, registry, options.metricsPath ?? '/metrics');
    registerHealthRoutes(app, readiness);
  },
  { name: 'trove-service-kit', fastify: '5.x' },
);
