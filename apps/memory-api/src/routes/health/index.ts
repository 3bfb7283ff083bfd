import type { FastifyPluginAsync } from 'fastify';
import type { MemoryDatabase } from '../../db.ts';
import { healthCounts } from '../../memories/stats.ts';
import { VERSION } from '../../meta.ts';

export const API_VERSIONS = ['v1'];

/**
 * `GET /health`: `{status}` to anyone; version, memory and namespace counts and API versions only
 * to a caller with a valid token (or to everyone when authentication is off). 503 when the
 * database is down. `update_available` is left out: the service never calls upstream.
 */
export const healthRoutes: FastifyPluginAsync<{ db: MemoryDatabase }> = async (app, { db }) => {
  app.get(
    '/health',
    {
      config: {
        access: 'health',
        description: 'service health; details need a valid token',
        responseType: 'HealthResponse',
      },
    },
    async (request, reply) => {
      const full = request.caller !== 'anonymous';
      try {
        if (!full) {
          await db.ping();
          return { status: 'ok' };
        }
        return {
          status: 'ok',
          version: VERSION,
          ...(await healthCounts(db)),
          api_versions: API_VERSIONS,
          api_latest: API_VERSIONS.at(-1),
        };
      } catch (err) {
        request.log.warn({ err }, 'health: database unreachable');
        return reply.code(503).send(full ? { status: 'unavailable', version: VERSION } : { status: 'unavailable' });
      }
    },
  );
};
