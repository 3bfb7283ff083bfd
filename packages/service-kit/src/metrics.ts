import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, type Registry } from 'prom-client';

const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One registry per app instance (one per process in production): process metrics plus HTTP metrics. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  // These gauges end in _total, which Prometheus reserves for counters (promtool rejects them);
  // the same numbers are kept per type in nodejs_active_handles, _requests and _resources.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(name);
  }
  return registry;
}

/**
 * Counts requests and times them, labelled by route template (never the raw URL, which would let
 * callers create unbounded series) and status code.
 */
export function instrumentHttp(app: FastifyInstance, registry: Registry): void {
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route template and status code',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });

  // Label children are cached per (method, route, status): resolving labels on every request
  // is the larger part of what metrics cost per request.
  const children = new Map<string, { count: () => void; observe: (seconds: number) => void }>();
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      const counter = requests.labels(labels);
      const histogram = duration.labels(labels);
      child = { count: () => counter.inc(), observe: (s) => histogram.observe(s) };
      children.set(key, child);
    }
    child.count();
    child.observe(reply.elapsedTime / 1000);
  });
}

export function registerMetricsRoute(app: FastifyInstance, registry: Registry, path = '/metrics'): void {
  app.get(path, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
