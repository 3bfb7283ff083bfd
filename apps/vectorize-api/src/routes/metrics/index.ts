import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { RequestStats } from '../../request-stats.ts';
import { metricsRouteSchema } from '../../schemas/service.ts';

const COUNTED_ROUTES = new Set(['/v1/vectorize', '/v1/optimize']);

/** The start-up warm-up's own requests carry this header with a value no client can know: not counted. */
export const WARM_UP_HEADER = 'x-trove-warm-up';
export const WARM_UP_TOKEN = randomUUID();

/** Counts vectorize and optimize responses; registered on the app so it sees every route. */
export function countWorkRequests(app: FastifyInstance, stats: RequestStats): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.headers[WARM_UP_HEADER] === WARM_UP_TOKEN) return;
    if (COUNTED_ROUTES.has(request.routeOptions.url ?? '')) stats.record(reply.elapsedTime);
  });
}

/** `GET /v1/metrics`: the spec's JSON counters; Prometheus text stays at /metrics. */
export const metricsRoutes: FastifyPluginAsync<{ stats: RequestStats }> = async (app, { stats }) => {
  app.get('/v1/metrics', { schema: metricsRouteSchema }, async () => stats.snapshot());
};
