import type { Tracer, TracerStatus } from '@trove/tracer';
import type { FastifyPluginAsync } from 'fastify';
import { VERSION } from '../../meta.ts';
import { healthRouteSchema } from '../../schemas/service.ts';

/** Where tracing runs and what it can take now, as /v1/health and /readyz show it (no addresses). */
export function tracingReport(status: TracerStatus) {
  return {
    mode: status.mode,
    ...(status.servers && { workers: status.servers.total, workers_reachable: status.servers.reachable }),
    threads: status.threads,
    queue_length: status.queueLength,
    busy: status.busy,
    queued: status.queued,
    spare_capacity: status.spare,
  };
}

/**
 * `GET /v1/health`: the spec's health response, plus the state of tracing. Answered from memory (a
 * remote tracer's last capacity poll), so it stays fast however busy or unreachable the workers are.
 */
export const healthRoutes: FastifyPluginAsync<{ tracer: Tracer }> = async (app, { tracer }) => {
  app.get('/v1/health', { schema: healthRouteSchema }, async () => {
    const status = tracer.status();
    const unreachable = status.servers !== undefined && status.servers.reachable === 0;
    return { status: unreachable ? 'degraded' : 'ok', version: VERSION, tracing: tracingReport(status) };
  });
};
