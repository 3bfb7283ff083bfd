import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import fp from 'fastify-plugin';
import { type CircuitBreaker, registerCircuitMetrics } from './circuit-breaker.ts';
import { handleDependencyFailures } from './dependency-failures.ts';
import { type ErrorMapper, errorBody, type FailureClassifier, handleError, handleNotFound } from './errors.ts';
import { PROBE_PATHS, Readiness, type ReadinessCheck, registerHealthRoutes } from './health.ts';
import type { Logger } from './logger.ts';
import { createRegistry, instrumentHttp, type Registry, registerMetricsRoute } from './metrics.ts';
import { runWithRequestId } from './request-context.ts';
import {
  describeSchemaErrors,
  refuseUnstorableAddress,
  refuseUnstorableBody,
  strictRequestValidation,
} from './request-validation.ts';
import type { ConnectionLimits } from './server-env.ts';

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
    metricsRegistry: Registry;
    /** Every route as registered, with its request schemas (what the fuzz tests generate requests from). */
    routeCatalog: CatalogRoute[];
    /** The app's own refusals as HttpErrors (ServiceKitOptions.mapError), consulted by `handleError`. */
    mapError: ErrorMapper;
  }
}

export interface CatalogRoute {
  method: string;
  url: string;
  schema: { body?: unknown; querystring?: unknown; params?: unknown; hide?: boolean };
}

const INCOMING_ID = /^[\w.:-]{1,128}$/;

export interface ServerOptions {
  logger: Logger;
  /** Largest request body accepted by the default parsers, in bytes. */
  bodyLimit?: number;
  /** Dependencies (database, Redis...) closed once the server has drained and closed. */
  closeWith?: { close(): Promise<void> }[];
  /** Connection cap and timeouts (connectionEnv); unset keeps Node's and Fastify's defaults. */
  connections?: ConnectionLimits;
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
    // Node checks header and request timeouts this often (30 s by default, which would let a slow
    // client hold its socket up to 30 s past HEADERS_TIMEOUT_MS).
    ...(options.connections && {
      http: { connectionsCheckingInterval: Math.min(1_000, options.connections.HEADERS_TIMEOUT_MS) },
    }),
    schemaController: strictRequestValidation(),
    schemaErrorFormatter: (errors, dataVar) => describeSchemaErrors(errors as never, dataVar),
    // Errors the router raises before any handler (an over-long path parameter, a URL that does
    // not decode) get the one error shape too; Fastify's default echoes the whole path in its own.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return (reply as unknown as FastifyReply)
        .code(tooLong ? 414 : (error.statusCode ?? 400))
        .send(errorBody(tooLong ? 'a path parameter is longer than 100 characters' : 'the URL is not valid'));
    },
    // Requests that arrive on an open connection while draining are still served, not refused.
    return503OnClosing: false,
  }) as unknown as FastifyInstance;
  // Fastify reads text/plain bodies as strings by default, so JSON sent as text reached the schema
  // as "body must be object"; no route takes plain text, so such a body is a 415 naming the type.
  server.removeContentTypeParser('text/plain');
  const limits = options.connections;
  if (limits) {
    // Node closes connections over maxConnections as they are accepted; the timeouts bound what a
    // slow client (headers, body) or an idle keep-alive connection may hold.
    server.server.maxConnections = limits.MAX_CONNECTIONS;
    server.server.headersTimeout = limits.HEADERS_TIMEOUT_MS;
    server.server.requestTimeout = Math.max(limits.REQUEST_TIMEOUT_MS, limits.HEADERS_TIMEOUT_MS);
    server.server.keepAliveTimeout = limits.KEEP_ALIVE_TIMEOUT_MS;
  }
  const routeCatalog: CatalogRoute[] = [];
  server.decorate('routeCatalog', routeCatalog);
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD')
        routeCatalog.push({ method, url: route.url, schema: (route.schema ?? {}) as CatalogRoute['schema'] });
    }
  });
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
  /** Dependencies the app can serve without, in a lesser way: reported as `degraded`, never unready. */
  softChecks?: Record<string, ReadinessCheck>;
  /** Conditions only a restart cures (see Readiness.addLiveness): /livez answers 503 while one throws. */
  liveness?: Record<string, () => void>;
  /** Breakers around optional dependencies: their state in /readyz (`details.<name>.circuit`) and /metrics. */
  circuits?: readonly CircuitBreaker[];
  /** Recognises failures of required dependencies in handler errors: answered 503/507 with Retry-After. */
  classifyFailure?: FailureClassifier;
  /**
   * Turns an app's own errors (a domain's refusals) into HttpErrors before `handleError` answers
   * them, so an app maps its errors without replacing the kit's error handler.
   */
  mapError?: ErrorMapper;
  /** Where Prometheus text is served; false to serve it yourself. */
  metricsPath?: string | false;
}

/**
 * What every app gets: request ids echoed back, one error handler, text Postgres cannot store
 * refused with a 400, metrics by route template, liveness and readiness. Registered by each app's plugin before its routes.
 */
export const serviceKit = fp<ServiceKitOptions>(
  async (app, options) => {
    const registry = createRegistry(options.service);
    const readiness = new Readiness();
    for (const [name, check] of Object.entries(options.checks ?? {})) readiness.add(name, check);
    for (const [name, check] of Object.entries(options.softChecks ?? {})) {
      readiness.add(name, check, { required: false });
    }
    for (const [name, check] of Object.entries(options.liveness ?? {})) readiness.addLiveness(name, check);
    for (const breaker of options.circuits ?? []) {
      readiness.addDetails(breaker.name, () => ({ circuit: breaker.state }));
    }
    registerCircuitMetrics(registry, [...(options.circuits ?? [])]);
    app.decorate('metricsRegistry', registry);
    app.decorate('readiness', readiness);

    // A callback hook, so that the rest of the request (later hooks, the handler) runs inside
    // the request's context; an async hook's continuation would not reliably carry it.
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      runWithRequestId(String(request.id), done);
    });
    app.addHook('onRequest', refuseUnstorableAddress);
    app.addHook('preClose', async () => readiness.startDraining());
    app.addHook('preValidation', refuseUnstorableBody);
    handleDependencyFailures(app, options.classifyFailure);
    app.decorate('mapError', options.mapError ?? (() => undefined));
    app.setErrorHandler(handleError);
    app.setNotFoundHandler(handleNotFound);
    instrumentHttp(app, registry);
    if (options.metricsPath !== false) registerMetricsRoute(app, registry, options.metricsPath ?? '/metrics');
    registerHealthRoutes(app, readiness);
  },
  { name: 'trove-service-kit', fastify: '5.x' },
);
